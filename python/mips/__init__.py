# SPDX-License-Identifier: Apache-2.0
"""libmips from Python: matrix products of numpy arrays, passed with their strides.

    import mips, numpy as np
    c = mips.matmul(a, b)                  # float32 @ float32 -> float32, int8 @ int8 -> int32
    mips.matmul(a, b, out=c[2:, 3:], accumulate=True)
    w = mips.pack_b(weights.T)             # pack once (libmips >= 1.2), use for every call
    y = mips.matmul(x, w)

Views (transposes, slices, negative and zero strides) reach libmips without copies.
The library is found through MIPS_LIBRARY (a path), else where `cmake --install` put it
beside this package, else the loader's search path.
"""
import numpy as np

from . import _library

__all__ = ["Error", "PackedB", "matmul", "pack_b", "version", "abi_version",
           "kernel_name", "default_threads"]

_lib = _library.load()
# The flags of mips/mips.h (a frozen part of the ABI; tests/python checks these against it).
_ACCUMULATE = 1
_ANY_ORDER = 2


def _max_threads_flag(n):
    """MIPS_MATMUL_MAX_THREADS(n)."""
    return n << 8


_INPUT_TYPES = {np.dtype(np.float32): ("f32", np.dtype(np.float32)),
                np.dtype(np.int8): ("i8i32", np.dtype(np.int32))}


class Error(Exception):
    """libmips refused a call; `status` is its negative status code (None: the library
    loaded is too old for what was asked)."""

    def __init__(self, function, status=None, text=None):
        self.status = status
        if text is None:
            text = _lib.mips_status_string(status).decode()
        super().__init__(f"{function}: {text}" if status is None
                         else f"{function}: {text} (status {status})")


def abi_version():
    """(major, minor) of the loaded libmips's ABI."""
    v = _lib.mips_abi_version()
    return (v >> 16, v & 0xFFFF)


def version():
    """The loaded libmips's version string, e.g. '1.2.0'."""
    return _lib.mips_version_string().decode()


def kernel_name():
    """The kernel set this process runs: 'rvv' or 'scalar'."""
    return _lib.mips_kernel_name().decode()


def default_threads():
    """Threads a call may use when max_threads is not given (MIPS_NUM_THREADS, else CPUs)."""
    _require(1, "default_threads()")
    return _lib.mips_default_threads()


def _require(minor, what):
    have = abi_version()
    if have < (1, minor):
        raise Error(what, text=f"needs libmips >= 1.{minor}, but the library loaded is "
                               f"{version()}")


def _check_array(name, x):
    if not isinstance(x, np.ndarray):
        raise TypeError(f"{name} must be a numpy.ndarray, not {type(x).__name__}")


def _input_kind(a, b_dtype):
    if a.dtype != b_dtype:
        raise TypeError(f"a and b must have the same dtype (float32 or int8), "
                        f"got {a.dtype} and {b_dtype}")
    if a.dtype not in _INPUT_TYPES:
        raise TypeError(f"libmips multiplies float32 or int8 arrays, not {a.dtype}")
    return _INPUT_TYPES[a.dtype]


def _view(name, x):
    """(base address, offset, element strides) of an array, base at its lowest element,
    so that negative strides keep every index non-negative."""
    itemsize = x.dtype.itemsize
    if x.size and x.ctypes.data % itemsize:
        # matmul copies such arrays first; libmips's kernels would load them whole.
        raise ValueError(f"{name}: not aligned to its {x.dtype} elements")
    strides = []
    for s in x.strides:
        if s % itemsize:
            raise ValueError(f"{name}: stride of {s} bytes is not a whole number of "
                             f"{x.dtype} elements")
        strides.append(s // itemsize)
    lowest = 0
    if x.size:
        lowest = sum(min(0, (d - 1) * s) for d, s in zip(x.shape, strides))
    return [x.ctypes.data + lowest * itemsize, -lowest] + strides


def _flags(accumulate, max_threads, any_order):
    flags = _ACCUMULATE if accumulate else 0
    if any_order:
        _require(2, "any_order=True")
        flags |= _ANY_ORDER
    if max_threads is not None:
        if isinstance(max_threads, bool) or not isinstance(max_threads, (int, np.integer)) \
                or not 1 <= max_threads <= 255:
            raise ValueError(f"max_threads must be an integer in 1..255, not {max_threads!r}")
        _require(1, "max_threads")
        flags |= _max_threads_flag(int(max_threads))
    return flags


def _call(function, *args):
    status = getattr(_lib, function)(*args)
    if status != 0:
        raise Error(function, status)


class PackedB:
    """A B operand packed once by mips.pack_b(); freed with close(), `with`, or when
    garbage collected. Valid in this process only."""

    def __init__(self, handle, k, n, dtype):
        self._handle, self.shape, self.dtype = handle, (k, n), dtype
        self._free = _lib.mips_packed_b_free  # kept: it must outlive module teardown

    def close(self):
        if self._handle:
            self._free(self._handle)
            self._handle = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        state = "" if self._handle else ", closed"
        return f"<mips.PackedB {self.shape[0]}x{self.shape[1]} {self.dtype}{state}>"


def pack_b(b):
    """Packs a 2-D float32 or int8 array (any strides) as the B of later matmul calls."""
    _require(2, "pack_b()")
    _check_array("b", b)
    kind, _ = _input_kind(b, b.dtype)
    if b.ndim != 2:
        raise ValueError(f"pack_b: b must be 2-D (k x n), got shape {b.shape}")
    handle = _library.ctypes.c_void_p()
    suffix = "f32" if kind == "f32" else "i8"
    _call(f"mips_pack_b_{suffix}", b.shape[0], b.shape[1], *_view("b", b),
          _library.ctypes.byref(handle))
    return PackedB(handle.value, b.shape[0], b.shape[1], b.dtype)


def matmul(a, b, out=None, accumulate=False, max_threads=None, any_order=False):
    """C = a @ b (or out += a @ b with accumulate=True), like numpy.matmul: 1-D operands
    are vectors, leading dimensions broadcast. float32 gives float32; int8 gives int32
    (exact, wrapping). `b` may be a PackedB. `out` may be any writable view of the
    result's shape and dtype; it must not overlap itself (mips.Error). f32 sums run in
    ascending k unless any_order=True allows dot products."""
    _check_array("a", a)
    packed = isinstance(b, PackedB)
    if packed:
        if not b._handle:
            raise ValueError("matmul: b is a closed PackedB")
        b_shape, b_dtype = b.shape, b.dtype
    else:
        _check_array("b", b)
        b_shape, b_dtype = b.shape, b.dtype
    kind, out_dtype = _input_kind(a, b_dtype)
    if a.ndim == 0 or len(b_shape) == 0:
        raise ValueError("matmul: operands must have at least one dimension, not be scalars")
    a_vector, b_vector = a.ndim == 1, len(b_shape) == 1
    if a_vector:
        a = a[np.newaxis, :]
    if b_vector:
        b = b[:, np.newaxis]
        b_shape = b.shape
    m, k = a.shape[-2:]
    kb, n = b_shape[-2:]
    if k != kb:
        raise ValueError(f"matmul: a has {k} columns but b has {kb} rows "
                         f"(shapes {a.shape} and {tuple(b_shape)})")
    try:
        batch = np.broadcast_shapes(a.shape[:-2], tuple(b_shape[:-2]))
    except ValueError:
        raise ValueError(f"matmul: batch dimensions {a.shape[:-2]} and "
                         f"{tuple(b_shape[:-2])} do not broadcast") from None
    result_shape = batch + ((m,) if not a_vector else ()) + ((n,) if not b_vector else ())
    flags = _flags(accumulate, max_threads, any_order)

    if out is None:
        if accumulate:
            raise ValueError("matmul: accumulate=True needs out= (the array to add to)")
        out = np.empty(result_shape, dtype=out_dtype)
    else:
        _check_array("out", out)
        if out.dtype != out_dtype:
            raise TypeError(f"out must be {out_dtype} for {a.dtype} inputs, not {out.dtype}")
        if out.shape != result_shape:
            raise ValueError(f"out has shape {out.shape}, the product has {result_shape}")
        if not out.flags.writeable:
            raise ValueError("out is read-only")
        # libmips requires C apart from A and B; numpy.matmul copies the input then too.
        if np.may_share_memory(out, a):
            a = a.copy()
        if not packed and np.may_share_memory(out, b):
            b = b.copy()
    # Entries of the outer batch dimensions are separate calls: libmips cannot see
    # them overlap, so a broadcast (zero-stride) out is refused here.
    loops = batch[:-1] if (not packed and abi_version() >= (1, 2)) else batch
    if any(size > 1 and stride == 0 for size, stride in zip(loops, out.strides)):
        raise Error("matmul", status=-4)
    # libmips's kernels load whole elements: misaligned arrays (np.frombuffer at an
    # odd offset) are copied, and a misaligned out gets an aligned stand-in.
    if not a.flags.aligned:
        a = a.copy()
    if not packed and not b.flags.aligned:
        b = b.copy()
    target = out
    if not out.flags.aligned:
        out = out.copy() if accumulate else np.empty(out.shape, out.dtype)
    c = out
    if a_vector:
        c = np.expand_dims(c, c.ndim - (0 if b_vector else 1))
    if b_vector:
        c = np.expand_dims(c, c.ndim)

    a = np.broadcast_to(a, batch + (m, k))
    if packed:
        for index in np.ndindex(*batch):
            _call(f"mips_matmul_packed_{kind}", m, *_view("a", a[index]), b._handle,
                  *_view("out", c[index]), flags)
        return _deliver(out, target)
    b = np.broadcast_to(b, batch + (k, n))
    if not batch:
        _call(f"mips_matmul_{kind}", m, n, k, *_view("a", a), *_view("b", b),
              *_view("out", c), flags)
    elif abi_version() >= (1, 2):
        # The innermost batch dimension is one call; any outer ones loop here.
        for index in np.ndindex(*batch[:-1]):
            _call(f"mips_matmul_batch_{kind}", batch[-1], m, n, k, *_view("a", a[index]),
                  *_view("b", b[index]), *_view("out", c[index]), flags)
    else:
        for index in np.ndindex(*batch):
            _call(f"mips_matmul_{kind}", m, n, k, *_view("a", a[index]),
                  *_view("b", b[index]), *_view("out", c[index]), flags)
    return _deliver(out, target)


def _deliver(computed, target):
    """The result in the caller's out (copied there if it stood in for a misaligned one)."""
    if computed is not target:
        target[...] = computed
    return target
