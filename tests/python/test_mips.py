# SPDX-License-Identifier: Apache-2.0
"""The Python module mips against numpy.matmul: random shapes, dtypes and views, and
every error path. Runs on the libmips named by MIPS_LIBRARY (set by the test runner)."""
import os

import numpy as np
import pytest

import mips

as_strided = np.lib.stride_tricks.as_strided


def test_loads_the_library_under_test():
    assert os.environ.get("MIPS_LIBRARY"), "the runner sets MIPS_LIBRARY to the build's libmips"
    assert mips.version().startswith("%d.%d." % mips.abi_version())
    assert mips.abi_version() >= (1, 2)
    assert mips.kernel_name() in ("scalar", "rvv", "x86")
    assert mips.default_threads() >= 1


def test_flags_are_the_headers():
    """The module's flag bits are mips.h's, read from the header itself."""
    import re
    header = os.path.join(os.path.dirname(__file__), "..", "..", "libmips", "include", "mips",
                          "mips.h")
    text = open(header).read()
    def define(name):
        match = re.search(r"^#define %s(\(n\))? +(.*?)(?: */\*.*)?$" % name, text, re.M)
        assert match, name
        return match.group(2).strip()
    assert eval(define("MIPS_MATMUL_ACCUMULATE").rstrip("u")) == mips._ACCUMULATE
    assert eval(define("MIPS_MATMUL_ANY_ORDER").rstrip("u")) == mips._ANY_ORDER
    max_threads = define("MIPS_MATMUL_MAX_THREADS").replace("(uint32_t)", "")
    for n in (1, 2, 7, 255):
        assert eval(max_threads, {"n": n}) == mips._max_threads_flag(n)


def random_operand(rng, rows, cols, dtype, pattern):
    """A rows x cols view of the given stride pattern, backed by a larger array."""
    def fill(shape):
        if dtype == np.int8:
            return rng.integers(-128, 128, size=shape, dtype=np.int8)
        return rng.standard_normal(shape).astype(np.float32)
    if pattern == "contiguous":
        return fill((rows, cols))
    if pattern == "transposed":
        return fill((cols, rows)).T
    if pattern == "sliced":
        return fill((rows + 3, 2 * cols + 1))[2:rows + 2, 1::2][:, :cols]
    if pattern == "negative":
        return fill((rows, cols))[::-1, ::-1]
    if pattern == "negative_transposed":
        return fill((cols, 3 * rows))[::-1, ::-3].T
    if pattern == "broadcast_row":
        return np.broadcast_to(fill((1, cols)), (rows, cols))
    if pattern == "broadcast_column":
        return np.broadcast_to(fill((rows, 1)), (rows, cols))
    raise AssertionError(pattern)


PATTERNS = ["contiguous", "transposed", "sliced", "negative", "negative_transposed",
            "broadcast_row", "broadcast_column"]


def reference(a, b):
    if a.dtype == np.int8:
        return (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)
    return a.astype(np.float64) @ b.astype(np.float64)


def assert_product(got, a, b, accumulated=None):
    expected = reference(a, b)
    if accumulated is not None:
        expected = expected + accumulated
    if a.dtype == np.int8:
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, expected.astype(np.int32))
    else:
        assert got.dtype == np.float32
        k = a.shape[-1]
        bound = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)
        if accumulated is not None:
            bound = bound + np.abs(accumulated)
        assert np.all(np.abs(got - expected) <= (k + 2) * np.finfo(np.float32).eps * bound + 1e-30)


@pytest.mark.parametrize("dtype", [np.float32, np.int8])
@pytest.mark.parametrize("seed", range(6))
def test_random_views_against_numpy(dtype, seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        m, n, k = (int(x) for x in rng.integers(0, 70, size=3))
        a = random_operand(rng, m, k, dtype, PATTERNS[rng.integers(len(PATTERNS))])
        b = random_operand(rng, k, n, dtype, PATTERNS[rng.integers(len(PATTERNS))])
        got = mips.matmul(a, b)
        assert got.shape == (m, n)
        assert_product(got, a, b)
        if dtype == np.float32 and m and n and k:
            np.testing.assert_allclose(got, np.matmul(a, b), rtol=1e-4, atol=1e-4 * k)


@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_out_is_a_view_of_a_larger_array(dtype):
    rng = np.random.default_rng(1)
    a = random_operand(rng, 17, 9, dtype, "sliced")
    b = random_operand(rng, 9, 11, dtype, "transposed")
    big = np.full((40, 40), 7, dtype=np.int32 if dtype == np.int8 else np.float32)
    before = big.copy()
    view = big[30:13:-1, 2:35:3]            # negative row stride, column step 3
    assert mips.matmul(a, b, out=view) is view
    assert_product(view, a, b)
    untouched = np.ones(big.shape, dtype=bool)
    untouched[30:13:-1, 2:35:3] = False
    np.testing.assert_array_equal(big[untouched], before[untouched])


@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_accumulate_adds_to_out(dtype):
    rng = np.random.default_rng(2)
    a = random_operand(rng, 8, 5, dtype, "contiguous")
    b = random_operand(rng, 5, 6, dtype, "negative")
    out = (np.arange(48).reshape(8, 6) - 20).astype(np.int32 if dtype == np.int8 else np.float32)
    start = out.copy()
    mips.matmul(a, b, out=out, accumulate=True)
    assert_product(out, a, b, accumulated=start.astype(np.float64 if dtype == np.float32 else np.int64))


def test_overwrite_never_reads_out():
    a = np.ones((3, 4), np.float32)
    out = np.full((3, 2), np.nan, np.float32)
    mips.matmul(a, np.ones((4, 2), np.float32), out=out)
    np.testing.assert_array_equal(out, np.full((3, 2), 4, np.float32))


def test_int8_sums_wrap_like_int32():
    k = 140000   # 127 * 127 * k passes 2^31
    a = np.full((1, k), 127, np.int8)
    b = np.full((k, 1), 127, np.int8)
    expected = np.array([[127 * 127 * k]], np.int64).astype(np.int32)  # wraps
    np.testing.assert_array_equal(mips.matmul(a, b), expected)


def test_vectors_and_batches_like_numpy():
    rng = np.random.default_rng(3)
    f = lambda *shape: rng.standard_normal(shape).astype(np.float32)
    cases = [(f(7), f(7, 5)), (f(4, 7), f(7)), (f(7), f(7)), (f(3, 4, 7), f(7, 5)),
             (f(4, 7), f(3, 7, 5)), (f(2, 1, 4, 7), f(3, 7, 5)), (f(3, 4, 7)[::-1], f(3, 5, 7).transpose(0, 2, 1))]
    for a, b in cases:
        got, expected = mips.matmul(a, b), np.matmul(a, b)
        assert got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_out_overlapping_an_input_is_handled_like_numpy():
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    expected = a @ a
    mips.matmul(a, a, out=a)   # numpy.matmul copies the input; so does mips
    np.testing.assert_array_equal(a, expected)


def test_threads_and_any_order():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((300, 200)).astype(np.float32)
    b = rng.standard_normal((200, 150)).astype(np.float32)
    one = mips.matmul(a, b, max_threads=1)
    np.testing.assert_array_equal(mips.matmul(a, b, max_threads=4), one)  # ordered sums
    any_order = mips.matmul(a[:1], b, any_order=True)
    np.testing.assert_allclose(any_order, one[:1], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_packed_b_gives_the_same_products(dtype):
    rng = np.random.default_rng(5)
    weights = random_operand(rng, 40, 33, dtype, "contiguous")   # n x k, the PyTorch way
    with mips.pack_b(weights.T) as packed:
        assert packed.shape == (33, 40)
        for m in (1, 3, 20):
            x = random_operand(rng, m, 33, dtype, "sliced")
            np.testing.assert_array_equal(mips.matmul(x, packed), mips.matmul(x, weights.T))
        x = random_operand(rng, 33, 33, dtype, "contiguous")[None].repeat(2, axis=0)
        np.testing.assert_array_equal(mips.matmul(x, packed), mips.matmul(x, weights.T))
    assert "closed" in repr(packed)
    with pytest.raises(ValueError, match="closed"):
        mips.matmul(x[0], packed)


def test_argument_errors_before_any_call():
    f32 = np.ones((2, 2), np.float32)
    with pytest.raises(TypeError, match="numpy.ndarray, not list"):
        mips.matmul([[1.0]], f32)
    with pytest.raises(TypeError, match="same dtype"):
        mips.matmul(f32, f32.astype(np.float64))
    with pytest.raises(TypeError, match="float32 or int8 arrays, not float64"):
        mips.matmul(f32.astype(np.float64), f32.astype(np.float64))
    with pytest.raises(ValueError, match="a has 2 columns but b has 3 rows"):
        mips.matmul(f32, np.ones((3, 2), np.float32))
    with pytest.raises(ValueError, match="scalars"):
        mips.matmul(np.ones((), np.float32), f32)
    with pytest.raises(ValueError, match="do not broadcast"):
        mips.matmul(np.ones((2, 2, 2), np.float32), np.ones((3, 2, 2), np.float32))
    with pytest.raises(TypeError, match="out must be float32"):
        mips.matmul(f32, f32, out=np.ones((2, 2), np.float64))
    with pytest.raises(ValueError, match=r"out has shape \(3, 2\), the product has \(2, 2\)"):
        mips.matmul(f32, f32, out=np.ones((3, 2), np.float32))
    readonly = np.ones((2, 2), np.float32)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        mips.matmul(f32, f32, out=readonly)
    with pytest.raises(ValueError, match="accumulate=True needs out"):
        mips.matmul(f32, f32, accumulate=True)
    for bad in (0, 256, 1.5, True):
        with pytest.raises(ValueError, match="max_threads"):
            mips.matmul(f32, f32, max_threads=bad)
    # Strides of 6 bytes are not whole floats (nor aligned): such a view is copied first.
    odd = as_strided(np.arange(8, dtype=np.float32), (2, 2), (6, 4))
    np.testing.assert_array_equal(mips.matmul(odd, f32), odd.copy() @ f32)
    with pytest.raises(ValueError, match="2-D"):
        mips.pack_b(np.ones(3, np.float32))


def test_library_checks_raise_mips_error():
    f32 = np.ones((4, 4), np.float32)
    aliased = as_strided(np.zeros(4, np.float32), (4, 4), (0, 4))  # every row the same
    with pytest.raises(mips.Error, match="two elements of C") as caught:
        mips.matmul(f32, f32, out=aliased)
    assert caught.value.status == -4
    huge = as_strided(np.ones(1, np.float32), (16, 4), (1 << 62, 4))  # never accessed
    with pytest.raises(mips.Error, match="overflows") as caught:
        mips.matmul(huge, f32)
    assert caught.value.status == -3


@pytest.mark.parametrize("accumulate", [False, True])
def test_misaligned_arrays(accumulate):
    """np.frombuffer at an odd offset gives float32 arrays libmips must not load as is."""
    rng = np.random.default_rng(6)
    def misaligned(values):
        raw = np.zeros(values.nbytes + 1, np.uint8)
        x = np.frombuffer(raw.data, np.float32, count=values.size, offset=1).reshape(values.shape)
        assert not x.flags.aligned
        x.flags.writeable = True
        x[...] = values
        return x
    a = misaligned(rng.standard_normal((9, 7)).astype(np.float32))
    b = misaligned(rng.standard_normal((7, 5)).astype(np.float32))
    out = misaligned(np.ones((9, 5), np.float32))
    got = mips.matmul(a, b, out=out, accumulate=accumulate)
    assert got is out
    assert_product(out, a, b, accumulated=np.ones((9, 5)) if accumulate else None)


def test_outer_batch_entries_must_not_overlap():
    """Entries of the outer batch dimensions are separate calls: a zero stride there would
    write one element twice, so it is refused before any call."""
    a = np.ones((2, 3, 4, 5), np.float32)
    b = np.ones((5, 6), np.float32)
    out = as_strided(np.zeros((3, 4, 6), np.float32), (2, 3, 4, 6), (0, 96, 24, 4))
    with pytest.raises(mips.Error) as caught:
        mips.matmul(a, b, out=out, accumulate=True)
    assert caught.value.status == -4
    assert not out.any()
