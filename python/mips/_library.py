# SPDX-License-Identifier: Apache-2.0
"""Finds and binds libmips.so.1 with ctypes (no compiled extension)."""
import ctypes
import os
from pathlib import Path

_i64 = ctypes.c_int64
_ptr = ctypes.c_void_p
_u32 = ctypes.c_uint32


def _candidates():
    # An explicit choice is the only one tried: a typo must not fall back silently.
    explicit = os.environ.get("MIPS_LIBRARY")
    if explicit:
        return [explicit]
    found = []
    try:
        # Written by `cmake --install`: where libmips sits relative to this package.
        from ._install_layout import LIBDIR_FROM_PACKAGE
        found.append(os.path.normpath(Path(__file__).resolve().parent / LIBDIR_FROM_PACKAGE
                                      / "libmips.so.1"))
    except ImportError:
        pass
    found.append("libmips.so.1")  # the dynamic loader's own search path
    return found


def load():
    errors = []
    for name in _candidates():
        try:
            lib = ctypes.CDLL(name)
        except OSError as e:
            errors.append(f"{name}: {e}")
            continue
        _declare(lib)
        return lib
    raise ImportError("mips: cannot load libmips.so.1 (set MIPS_LIBRARY to its path): "
                      + "; ".join(errors))


def _view(n_dims):
    # (base pointer, offset, strides...) as the C ABI lays out each matrix.
    return [_ptr, _i64] + [_i64] * n_dims


def _declare(lib):
    lib.mips_abi_version.restype = _u32
    lib.mips_abi_version.argtypes = []
    for name in ("mips_version_string", "mips_kernel_name"):
        getattr(lib, name).restype = ctypes.c_char_p
        getattr(lib, name).argtypes = []
    lib.mips_status_string.restype = ctypes.c_char_p
    lib.mips_status_string.argtypes = [ctypes.c_int]
    abi = lib.mips_abi_version()
    if abi >= (1 << 16 | 1):
        lib.mips_default_threads.restype = ctypes.c_int
        lib.mips_default_threads.argtypes = []
    for name in ("mips_matmul_f32", "mips_matmul_i8i32"):
        fn = getattr(lib, name)
        fn.restype = ctypes.c_int
        fn.argtypes = [_i64] * 3 + _view(2) * 3 + [_u32]
    if abi >= (1 << 16 | 2):
        for name in ("mips_matmul_batch_f32", "mips_matmul_batch_i8i32"):
            fn = getattr(lib, name)
            fn.restype = ctypes.c_int
            fn.argtypes = [_i64] * 4 + _view(3) * 3 + [_u32]
        for name in ("mips_pack_b_f32", "mips_pack_b_i8"):
            fn = getattr(lib, name)
            fn.restype = ctypes.c_int
            fn.argtypes = [_i64, _i64] + _view(2) + [ctypes.POINTER(_ptr)]
        lib.mips_packed_b_free.restype = None
        lib.mips_packed_b_free.argtypes = [_ptr]
        for name in ("mips_matmul_packed_f32", "mips_matmul_packed_i8i32"):
            fn = getattr(lib, name)
            fn.restype = ctypes.c_int
            fn.argtypes = [_i64] + _view(2) + [_ptr] + _view(2) + [_u32]
