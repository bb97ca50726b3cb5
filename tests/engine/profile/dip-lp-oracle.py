# The dip of Hartigan & Hartigan (1985) as a linear programme straight from its definition, independent of
# electron/engine/profile/dip.ts (which follows the paper's algorithm): the smallest d such that some unimodal
# distribution function G stays within d of the sample's empirical one. G is taken piecewise linear through the
# sorted points, non-decreasing, convex up to a mode segment t and concave after it; every t is tried.
# tests/engine/profile/dip.test.ts holds the values it gives for a few samples. Needs numpy and scipy:
#   echo '[[1, 2, 3, 4, 5, 6, 7, 8]]' | python3 tests/engine/profile/dip-lp-oracle.py      → [0.0625]
import sys, json
import numpy as np
from scipy.optimize import linprog

def dip_lp(x):
    x = np.sort(np.asarray(x, float)); n = len(x)
    best = np.inf
    for t in range(0, n - 1):  # mode segment between x[t] and x[t+1]
        # variables: G_0..G_{n-1}, d
        nv = n + 1
        A, b = [], []
        def row(): return np.zeros(nv)
        for i in range(n):
            hi, lo = (i + 1) / n, i / n
            r = row(); r[i] = 1; r[n] = -1; A.append(r); b.append(lo)   # G_i - lo <= d   (F(x_i-) = i/n)
            r = row(); r[i] = -1; r[n] = -1; A.append(r); b.append(-hi) # hi - G_i <= d   (F(x_i) = (i+1)/n)
            r = row(); r[i] = 1; r[n] = -1; A.append(r); b.append(hi)
            r = row(); r[i] = -1; r[n] = -1; A.append(r); b.append(-lo)
        for i in range(n - 1):  # slopes >= 0
            r = row(); r[i] = 1; r[i + 1] = -1; A.append(r); b.append(0)
        dx = np.diff(x)
        for i in range(n - 2):  # s_i vs s_{i+1}
            r = row()
            # s_i = (G_{i+1}-G_i)/dx_i ; s_{i+1} = (G_{i+2}-G_{i+1})/dx_{i+1}
            if i + 1 <= t:   # convex: s_i <= s_{i+1}
                r[i + 1] += 1 / dx[i]; r[i] -= 1 / dx[i]; r[i + 2] -= 1 / dx[i + 1]; r[i + 1] += 1 / dx[i + 1]
            else:            # concave: s_i >= s_{i+1}
                r[i + 1] -= 1 / dx[i]; r[i] += 1 / dx[i]; r[i + 2] += 1 / dx[i + 1]; r[i + 1] -= 1 / dx[i + 1]
            A.append(r); b.append(0)
        c = row(); c[n] = 1
        bounds = [(0, 1)] * n + [(0, 1)]
        res = linprog(c, A_ub=np.array(A), b_ub=np.array(b), bounds=bounds, method='highs')
        if res.status == 0: best = min(best, res.fun)
    return best

if __name__ == '__main__':
    samples = json.load(sys.stdin)
    print(json.dumps([dip_lp(s) for s in samples]))
