// SPDX-License-Identifier: Apache-2.0
//===- ApproximateMath.cpp - polynomial math instead of libm ---*- C++ -*-===//
//
// A libm call per element costs tens of instructions and keeps its loop scalar;
// upstream's polynomial approximations are a few dozen arithmetic ops that
// vectorize. Functions without an approximation keep their libm call.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <limits>

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSAPPROXIMATEMATH
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// The functions rewritten, by op name (`math.erf`): those models use, whose
/// approximations tests/math/ measures within a few ulp over the whole float
/// range. Left to libm: sin and cos (upstream's range reduction fails for large
/// arguments, which rotary embeddings reach), atan (40 ulp), and the rest.
/// rsqrt is exact already (a square root and a divide, which vectorize).
bool isApproximated(StringRef name) {
  return llvm::is_contained({"math.exp", "math.expm1", "math.log", "math.log1p", "math.log2",
                             "math.tanh", "math.erf"},
                            name);
}

/// Those rewritten by upstream's patterns: exp and erf have their own
/// (ReducedExp, RationalErf).
bool isApproximatedUpstream(StringRef name) {
  return name != "math.exp" && name != "math.erf" && isApproximated(name);
}

/// An f32 constant of `type` (f32, or a shaped type of f32: a splat).
Value splatF32(OpBuilder &b, Location loc, Type type, double value) {
  TypedAttr attr = b.getF32FloatAttr(static_cast<float>(value));
  if (auto shaped = dyn_cast<ShapedType>(type))
    attr = SplatElementsAttr::get(shaped, attr);
  return arith::ConstantOp::create(b, loc, type, attr);
}

/// f32 erf as one rational function, x P(x^2) / Q(x^2) on x clamped to
/// [-3.92, 3.92] (beyond it erf rounds to +-1), with no branches or coefficient
/// selects: upstream's erf picks its coefficients from three intervals (over 40
/// operations, and spills at LMUL 2). Fitted for this project: minimax relative
/// error 1.8e-9 in exact arithmetic, about 4.5 ulp after f32 rounding (see
/// tests/math).
namespace rational_erf {
constexpr double clampBound = 3.92;
constexpr double numerator[] = {0x1.20dd76p+0, 0x1.7b284ep-3,  0x1.bc5ep-5,   0x1.f72330p-9,
                                0x1.8b0fe2p-12, 0x1.3552b0p-18, -0x1.b7ce18p-27};
constexpr double denominator[] = {1.0,           0x1.fd57dap-2,  0x1.d26d66p-4,
                                  0x1.f99cdep-7, 0x1.553028p-10, 0x1.05b8fcp-14};

/// erf(s x) = factor * ratio, ratio = xc P'(t) / Q'(t) with xc = x clamped to
/// +-clampBound / |s| and t = xc^2. Q' is the denominator in x^2 made monic, so its
/// Horner chain starts with an add of a scalar. With `monicNumerator`, P' is monic
/// too and `factor` holds the leading coefficients, for callers that fold it into
/// an FMA they need anyway; otherwise P' carries them and `factor` is 1 (one
/// rounding fewer than multiplying afterwards).
struct Ratio {
  Value ratio;
  double factor;
};

Ratio build(OpBuilder &b, Location loc, Value x, double s, bool monicNumerator) {
  Type type = x.getType();
  auto constant = [&](double value) { return splatF32(b, loc, type, value); };
  Value bound = constant(clampBound / std::fabs(s));
  Value clamped = arith::MaxNumFOp::create(b, loc, arith::MinNumFOp::create(b, loc, x, bound),
                                           arith::NegFOp::create(b, loc, bound));
  Value t = arith::MulFOp::create(b, loc, clamped, clamped);
  // Coefficient k of p(s^2 x^2) as a polynomial in x^2, times `scale`; a scale
  // of 0 divides by the leading coefficient instead.
  auto polynomial = [&](ArrayRef<double> p, double scale) {
    const size_t n = p.size() - 1;
    auto coefficient = [&](size_t k) { return std::pow(s * s, double(k)) * p[k]; };
    const double leading = coefficient(n);
    auto scaled = [&](size_t k) {
      return scale == 0 ? coefficient(k) / leading : scale * coefficient(k);
    };
    Value sum = scale == 0 ? Value(arith::AddFOp::create(b, loc, t, constant(scaled(n - 1))))
                           : Value(math::FmaOp::create(b, loc, constant(scaled(n)), t,
                                                       constant(scaled(n - 1))));
    for (size_t k = n - 1; k-- > 0;)
      sum = math::FmaOp::create(b, loc, sum, t, constant(scaled(k)));
    return std::pair{sum, leading};
  };
  auto [q, qLeading] = polynomial(denominator, 0);
  double pScale = monicNumerator ? 0 : s / qLeading;
  auto [p, pLeading] = polynomial(numerator, pScale);
  Value ratio =
      arith::DivFOp::create(b, loc, arith::MulFOp::create(b, loc, clamped, p), q);
  return {ratio, monicNumerator ? s * pLeading / qLeading : 1.0};
}

/// The constant c of erf(x * c) or erf(x / c), as a factor of x; x is set to the
/// other operand. 1 for any other argument.
double argumentFactor(Value &x) {
  Operation *def = x.getDefiningOp();
  if (!def || !isa<arith::MulFOp, arith::DivFOp>(def))
    return 1.0;
  APFloat value(0.0f);
  for (int side : {1, 0}) {
    // A divisor is only ever the right-hand side.
    if ((isa<arith::DivFOp>(def) && side == 0) ||
        !matchPattern(def->getOperand(side), m_ConstantFloat(&value)))
      continue;
    double c = value.convertToDouble();
    if (isa<arith::DivFOp>(def))
      c = 1.0 / c;
    if (!std::isfinite(c) || c == 0.0)
      return 1.0;
    x = def->getOperand(1 - side);
    return c;
  }
  return 1.0;
}
} // namespace rational_erf

/// erf on f32: the rational, its result clamped to [-1, 1] (f32 rounding lifts a
/// few results near the bound just above 1) and NaN given back (the clamps take
/// it to a bound). A constant factor of the argument folds into the coefficients.
struct RationalErf : OpRewritePattern<math::ErfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ErfOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    Location loc = op.getLoc();
    auto constant = [&](double value) { return splatF32(rewriter, loc, type, value); };
    Value x = op.getOperand();
    double s = rational_erf::argumentFactor(x);
    rational_erf::Ratio erf = rational_erf::build(rewriter, loc, x, s, /*monicNumerator=*/false);
    Value clamped = arith::MaxNumFOp::create(
        rewriter, loc, arith::MinNumFOp::create(rewriter, loc, erf.ratio, constant(1.0)),
        constant(-1.0));
    Value isNaN = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isNaN, x, clamped);
    return success();
  }
};

/// GELU in its erf form, c x (1 + erf(s x)) as models write it (c = 1/2,
/// s = 1/sqrt 2; any nesting of the two products), as x (c + c erf(s x)): the
/// outer FMA takes erf's leading coefficients and the product with x gives NaN
/// back, so neither erf's clamps nor its NaN select are needed. Rounding may take
/// c (1 + erf) just above 1, which costs at most 2^-23 |x|; below the clamp bound
/// it is set to 0, since rounding noise there times a huge negative x would be
/// huge (GELU(-inf) is then -inf * 0 = NaN, as 0.5 * -inf * (1 + erf) is). Three
/// fewer vector operations than erf and GELU's own three.
struct GeluErf : OpRewritePattern<arith::MulFOp> {
  using OpRewritePattern::OpRewritePattern;

  /// v = a * constant (either order): a and the constant.
  static std::optional<std::pair<Value, double>> scaledBy(Value v) {
    auto mul = v.getDefiningOp<arith::MulFOp>();
    APFloat value(0.0f);
    if (!mul)
      return std::nullopt;
    for (int side : {1, 0})
      if (matchPattern(mul.getOperand(side), m_ConstantFloat(&value)))
        return std::pair{mul.getOperand(1 - side), value.convertToDouble()};
    return std::nullopt;
  }

  /// v = 1 + erf(y) (either order), erf used only here: the erf op.
  static math::ErfOp onePlusErf(Value v) {
    auto add = v ? v.getDefiningOp<arith::AddFOp>() : arith::AddFOp();
    if (!add)
      return {};
    for (int side : {0, 1}) {
      auto erf = add.getOperand(1 - side).getDefiningOp<math::ErfOp>();
      if (erf && erf->hasOneUse() && matchPattern(add.getOperand(side), m_OneFloat()))
        return erf;
    }
    return {};
  }

  LogicalResult matchAndRewrite(arith::MulFOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    // (x * c) * (1 + erf) or (x * (1 + erf)) * c, each product in either order.
    Value x;
    double c = 0;
    math::ErfOp erf;
    for (int side : {0, 1}) {
      Value a = op.getOperand(side), b = op.getOperand(1 - side);
      auto e = onePlusErf(b);
      auto xc = scaledBy(a);
      if (e && b.hasOneUse() && xc) {
        std::tie(x, c) = *xc;
        erf = e;
        break;
      }
    }
    if (auto mc = scaledBy(op.getResult()); !erf && mc) {
      auto mul = mc->first.getDefiningOp<arith::MulFOp>();
      for (int side : {0, 1}) {
        Value b = mul ? mul.getOperand(1 - side) : Value();
        if (auto e = onePlusErf(b); e && b.hasOneUse() && mul->hasOneUse()) {
          x = mul.getOperand(side);
          c = mc->second;
          erf = e;
          break;
        }
      }
    }
    if (!erf || !std::isfinite(c))
      return failure();
    Value y = erf.getOperand();
    double s = rational_erf::argumentFactor(y);
    if (y != x)
      return failure();
    Location loc = op.getLoc();
    rational_erf::Ratio ratio = rational_erf::build(rewriter, loc, x, s, /*monicNumerator=*/true);
    Value phi = math::FmaOp::create(rewriter, loc, ratio.ratio,
                                    splatF32(rewriter, loc, type, c * ratio.factor),
                                    splatF32(rewriter, loc, type, c));
    Value belowBound = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, x,
        splatF32(rewriter, loc, type, -rational_erf::clampBound / std::fabs(s)));
    phi = arith::SelectOp::create(rewriter, loc, belowBound,
                                  splatF32(rewriter, loc, type, 0.0), phi);
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, x, phi);
    return success();
  }
};

/// f32 exp(x) = 2^n e^t, n = round(x / ln 2) by the add-a-magic-number trick
/// (no float-to-int conversion), t = x - n ln 2 in two parts, e^t = 1 + t p(t)
/// with p of degree 5, 2^n built from the magic sum's bits by one shift. Results
/// beyond FLT_MAX overflow to +inf by themselves; those below about 2^-126.5 are
/// 0 (through a zero 2^n, or one select); NaN flows through t. 15 vector operations (and a
/// register copy) against upstream's 34, which
/// also converts to integer (vfcvt.rtz.x.f.v, which qemu 7.2 can abort on).
/// n is computed from min(x, 88.37) so that 2^n stays finite, so p is fitted
/// over [-ln2/2, 0.70], where t falls just below the overflow bound. Fitted for
/// this project; 1.5 ulp in an f32 emulation of the evaluation (tests/math).
struct ReducedExp : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  static constexpr double polynomial[] = {0x1.fffffcp-1, 0x1.00004ep-1, 0x1.555872p-3,
                                          0x1.54f196p-5, 0x1.107a68p-7, 0x1.ad1558p-10};

  LogicalResult matchAndRewrite(math::ExpOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    Location loc = op.getLoc();
    auto constant = [&](double value) { return splatF32(rewriter, loc, type, value); };
    Type intType = rewriter.getI32Type();
    if (auto shaped = dyn_cast<ShapedType>(type))
      intType = shaped.clone(intType);
    Value x = op.getOperand();
    // 1.5 * 2^23 rounds to an integer; its bits shifted left by 23 are then
    // (n + 127) << 23, i.e. 2^n, with 127 added in.
    Value magic = constant(0x1.8p23 + 127);
    Value nearOverflow = arith::MinNumFOp::create(rewriter, loc, x, constant(88.37));
    Value sum = math::FmaOp::create(rewriter, loc, nearOverflow, constant(0x1.715476p+0), magic);
    Value n = arith::SubFOp::create(rewriter, loc, sum, magic);
    Value t = math::FmaOp::create(rewriter, loc, n, constant(-0x1.62e4p-1), x);
    t = math::FmaOp::create(rewriter, loc, n, constant(-0x1.7f7d1cp-20), t);
    Value bits = arith::BitcastOp::create(rewriter, loc, intType, sum);
    Value shift = arith::ConstantOp::create(
        rewriter, loc, intType,
        isa<ShapedType>(intType)
            ? TypedAttr(SplatElementsAttr::get(cast<ShapedType>(intType), rewriter.getI32IntegerAttr(23)))
            : TypedAttr(rewriter.getI32IntegerAttr(23)));
    Value scale = arith::BitcastOp::create(rewriter, loc, type,
                                           arith::ShLIOp::create(rewriter, loc, bits, shift));
    Value p = constant(polynomial[5]);
    for (int k = 4; k >= 0; --k)
      p = math::FmaOp::create(rewriter, loc, p, t, constant(polynomial[k]));
    Value ts = arith::MulFOp::create(rewriter, loc, t, scale);
    Value result = math::FmaOp::create(rewriter, loc, ts, p, scale);
    // Past ln(FLT_MAX), n stays 127 and 2^127 (1 + t p(t)) rounds to +inf with no
    // select: just past the bound (t = 0.6931...) because p is accurate there (the
    // exhaustive sweep, math_sweep --only exp --stride 1, checks it), and beyond it
    // because t and p(t) only grow (p's coefficients are positive); +inf gives t =
    // +inf. n = -127 makes 2^n's bits 0, so the result 0 (exp(x) is at most
    // 2^-126.5 there); below that 2^n would wrap: a select on n + 127 < 0 (the magic
    // sum, not x, so that x is dead once t is formed and t needs no register copy)
    // flushes to 0, -inf included.
    Value underflows = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, sum,
                                             constant(0x1.8p23));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, underflows, constant(0.0), result);
    return success();
  }
};

/// Upstream's log and log2 approximations read a subnormal input's exponent as if
/// it were normal (log(1e-45) comes out 2e6 ulp off). Scaling such inputs by 2^23
/// first, and taking 23 ln 2 (or 23) off the result, keeps them in range.
void scaleSubnormalLogInputs(Operation *root) {
  root->walk([](Operation *op) {
    if (!isa<math::LogOp, math::Log2Op>(op) || !getElementTypeOrSelf(op->getResultTypes()[0]).isF32())
      return;
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type type = op->getResultTypes()[0];
    auto constant = [&](double value) { return splatF32(b, loc, type, value); };
    Value x = op->getOperand(0);
    Value tiny = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                       math::AbsFOp::create(b, loc, x), constant(0x1p-126));
    Value scaled = arith::SelectOp::create(
        b, loc, tiny, arith::MulFOp::create(b, loc, x, constant(0x1p23)), x);
    op->setOperand(0, scaled);
    b.setInsertionPointAfter(op);
    const double offset = isa<math::LogOp>(op) ? 23 * std::log(2.0) : 23.0;
    Value correction = arith::SelectOp::create(b, loc, tiny, constant(offset), constant(0.0));
    Value result = op->getResult(0);
    auto corrected = arith::SubFOp::create(b, loc, result, correction);
    result.replaceAllUsesExcept(corrected, corrected);
  });
}

/// LLVM has no expm1 or log1p intrinsic, so upstream's MathToLLVM writes them as
/// exp(x) - 1 and log(1 + x), which lose every digit for tiny x. With libm
/// asked for, they become calls of expm1f and log1pf instead.
LogicalResult callLibmForExpm1AndLog1p(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<math::ExpM1Op, math::Log1pOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  RewritePatternSet patterns(root->getContext());
  populateMathToLibmConversionPatterns(patterns);
  // The new ops too: on vectors the patterns first split the op into scalar
  // expm1/log1p, which must become calls in turn.
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  return applyOpPatternsGreedily(ops, std::move(patterns), config);
}

struct ApproximateMath : mips::impl::MipsApproximateMathBase<ApproximateMath> {
  using MipsApproximateMathBase::MipsApproximateMathBase;

  void runOnOperation() override {
    if (precise) {
      if (failed(callLibmForExpm1AndLog1p(getOperation())))
        signalPassFailure();
      return;
    }
    // Other float types are widened to f32 first, so that their subnormal log
    // inputs (still subnormal in f32, for bf16) are scaled too.
    RewritePatternSet widen(&getContext());
    populateMathF32ExpansionPatterns(widen, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(widen))))
      return signalPassFailure();
    scaleSubnormalLogInputs(getOperation());
    // The input's own fused multiply-adds stay fused whatever the target.
    StringAttr inputFma = StringAttr::get(&getContext(), "mips.input_fma");
    if (!fused)
      getOperation()->walk([&](math::FmaOp op) { op->setAttr(inputFma, UnitAttr::get(&getContext())); });
    // GELU first: once its erf is rewritten alone, the whole is no longer seen.
    RewritePatternSet gelu(&getContext());
    gelu.add<GeluErf>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(gelu))))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<RationalErf, ReducedExp>(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximatedUpstream);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    if (!fused)
      unfuseApproximations(inputFma);
  }

  /// Without fused multiply-add instructions (x86-64 before Haswell, the generic
  /// x86-64 CPU) a math.fma is a libm call per element, which also keeps its loop
  /// scalar: the polynomials' steps become a multiply and an add there (their
  /// reductions' products are exact either way, as in Cody and Waite's scheme).
  void unfuseApproximations(StringAttr inputFma) {
    SmallVector<math::FmaOp> fmas;
    getOperation()->walk([&](math::FmaOp op) {
      if (op->hasAttr(inputFma))
        op->removeAttr(inputFma);
      else
        fmas.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (math::FmaOp op : fmas) {
      rewriter.setInsertionPoint(op);
      Value product = arith::MulFOp::create(rewriter, op.getLoc(), op.getA(), op.getB());
      rewriter.replaceOpWithNewOp<arith::AddFOp>(op, product, op.getC());
    }
  }
};

} // namespace

bool mlir::mips::isApproximatedMath(Operation *op) {
  Type element = getElementTypeOrSelf(op->getResultTypes()[0]);
  return isApproximated(op->getName().getStringRef()) &&
         (element.isF32() || element.isF16() || element.isBF16());
}
