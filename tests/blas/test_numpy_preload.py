# SPDX-License-Identifier: Apache-2.0
"""numpy's float32 `@` with libmips-blas preloaded (LD_PRELOAD, set by the test runner):
the same results as numpy without it, on random shapes and views, and the products
really ran in libmips (libmips-blas's call counter)."""
import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest

LIBRARY = os.environ.get("LD_PRELOAD", "")


def calls_in_libmips():
    # The preloaded library is in the process's global scope.
    return ctypes.CDLL(None).mips_blas_calls()


def make_cases(seed=2026, count=60):
    """(a, b) pairs of float32 views of every kind numpy hands to BLAS (and some it copies)."""
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(count):
        m, n, k = (int(x) for x in rng.integers(1, 90, size=3))
        def rand(rows, cols):
            return rng.standard_normal((rows, cols)).astype(np.float32)
        kind = i % 6
        if kind == 0:
            x, y = rand(m + 3, k + 5)[:m, :k], rand(k + 4, n + 2)[:k, :n]  # slices
        elif kind == 1:
            x, y = rand(k, m).T, rand(k, n)                    # transposed A
        elif kind == 2:
            x, y = rand(m, k), rand(n, k).T                    # transposed B (PyTorch weights)
        elif kind == 3:
            x, y = rand(m, k).copy(order="F"), rand(k, n).copy(order="F")  # column-major
        elif kind == 4:
            x, y = rand(m, k)[::-1], rand(k, 2 * n)[:, ::2]    # negative and step strides
        else:
            x, y = rand(m, k) * 0, rand(k, n)                  # zeros: exact either way
        cases.append((x, y))
    return cases


def products():
    return [x @ y for x, y in make_cases()]


@pytest.fixture(scope="module")
def without_preload(tmp_path_factory):
    """The same products in a child python without libmips-blas."""
    out = tmp_path_factory.mktemp("plain") / "products.npz"
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    code = (f"import sys; sys.path.insert(0, {os.path.dirname(__file__)!r}); "
            f"import numpy as np, test_numpy_preload as t; "
            f"np.savez({str(out)!r}, *t.products())")
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    with np.load(out) as data:
        return [data[f"arr_{i}"] for i in range(len(data.files))]


def test_preloaded():
    assert "libmips-blas" in LIBRARY, "run with LD_PRELOAD=<path of libmips-blas.so.1>"
    before = calls_in_libmips()
    a, b = np.ones((40, 30), np.float32), np.full((30, 20), 2, np.float32)  # not a @ a.T: syrk
    np.testing.assert_array_equal(a @ b, np.full((40, 20), 60, np.float32))
    assert calls_in_libmips() == before + 1, "numpy's float32 @ did not reach libmips-blas"


def test_same_results_as_without_preload(without_preload):
    before = calls_in_libmips()
    mine = products()
    reached = calls_in_libmips() - before
    # Most of the 60 products are matrix-matrix (numpy calls sgemm); a few are copied first.
    assert reached >= 40, f"only {reached} of 60 products reached libmips"
    for (x, y), got, expected in zip(make_cases(), mine, without_preload):
        assert got.dtype == np.float32 and got.shape == expected.shape
        reference = x.astype(np.float64) @ y.astype(np.float64)
        scale = np.abs(x).astype(np.float64) @ np.abs(y).astype(np.float64) + 1e-30
        tolerance = 4 * x.shape[1] * np.finfo(np.float32).eps
        assert np.all(np.abs(got - reference) <= tolerance * scale), (x.shape, y.shape)
        assert np.all(np.abs(got - expected) <= 2 * tolerance * scale), (x.shape, y.shape)


def test_alpha_beta_through_cblas():
    """numpy only calls with alpha 1, beta 0: call cblas_sgemm itself for the others."""
    cblas = ctypes.CDLL(None).cblas_sgemm
    f = ctypes.c_float
    p = ctypes.c_void_p
    cblas.argtypes = [ctypes.c_int] * 6 + [f, p, ctypes.c_int, p, ctypes.c_int, f, p, ctypes.c_int]
    rng = np.random.default_rng(7)
    for alpha, beta in [(1, 0), (1, 1), (2.5, 0), (-1, 0.5), (0, 3), (0.5, 1)]:
        a = rng.standard_normal((13, 7)).astype(np.float32)
        b = rng.standard_normal((7, 11)).astype(np.float32)
        c = rng.standard_normal((13, 11)).astype(np.float32)
        if beta == 0:
            c[0, 0] = np.nan   # beta = 0 never reads C
        expected = alpha * (a.astype(np.float64) @ b) + (beta * c if beta else 0)
        cblas(101, 111, 111, 13, 11, 7, alpha, a.ctypes.data, 7, b.ctypes.data, 11, beta,
              c.ctypes.data, 11)
        np.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-5)
