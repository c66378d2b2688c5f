#!/usr/bin/env python3
# What a far field costs in accuracy (its requirement: "every shipped cluster's
# energy within 1e-8 Eh of today's exact build, at 512 waters too"). An estimate on the CPU, not
# part of kmini; needs NumPy only (pip).
#
#   python3 docs/reference/hf/far-field-multipoles.py > far-field-multipoles-output.txt
#   (the output of 2026-12-04: git show 6a86929:docs/reference/hf/far-field-multipoles-output.txt)
#
# Why a model and not the real J: the question is whether orders and separations that reach 1e-8 Eh
# leave much work to the far field, and that is set by the size of the charges and the geometry of
# the boxes, not by the basis. So:
# 1. E_J = 1/2 sum_{i != j} q_i q_j / r_ij with the electrons as point charges at the atoms: O 8,
#    H 1. All charges have one sign because J holds no nuclei, so a box's monopole is ~10 per water
#    and nothing cancels it; that is what makes 1e-8 Eh absolute hard. A second split, O 8.6 and
#    H 0.7 per water (a bonding shift of charge to O), shows the result does not hinge on the split.
#    Points make the estimate optimistic: Gaussian distributions also leak outside their box
#    (penetration, the erfc tails), which no multipole order removes; that error is not here.
# 2. Cubic boxes of side b bohr from the cluster's bounding-box minimum; a charge belongs to the box
#    holding it. Boxes whose integer indices differ by at most ws in every axis are near, else far.
# 3. E_far = exact sum over far box pairs (A < B by linear index) of q_i q_j / r_ij, i in A, j in B.
# 4. M2P: the ket box B expanded about its centre C_B, evaluated at each bra charge in A (what a J
#    engine would do per bra row): 1/|x - y| = sum_l |y-C|^l / |x-C|^(l+1) P_l(cos gamma). The
#    degree-l part of the Cartesian Taylor series in y - C is homogeneous of degree l, and so is the
#    l-th Legendre term, so truncating the Cartesian series at total degree L (what Hermite/R_tuv
#    code does) equals truncating the Legendre series at l <= L; a check below confirms it.
#    Each far box pair is taken once (multipole of the higher box, at the lower box's charges).
# 5. M2L: multipole at C_B and local expansion at C_A, truncated at total degree L in the bra and ket
#    offsets together (interaction tensor R_tuv at C_A - C_B with t+u+v <= L). That double series
#    is the Legendre series of 1/|R - d| in d = (y - C_B) - (x - C_A), so it is computed the same way.
#    An FMM that keeps multipole and local orders each up to L keeps more terms; not estimated.
# Errors are computed as the tail of the series (sum of the terms above L, small terms first), not
# as exact minus truncated: E_J is ~5e5 Eh at 512 waters, so 1e-8 Eh is ~2e-14 of it, and a difference
# of two large sums would be rounding. Where the directly summed tail had to stop before its terms
# were negligible (M2L at ws = 1), the remainder is exact minus partial, per pair.
# The energy error is the right measure for the SCF energy: the SCF energy is stationary in D, so
# an error dJ in the Coulomb matrix moves the energy by 1/2 Tr(D dJ) to first order, the error in E_J.
import math, os, sys, time
import numpy as np

BOHR = 1.8897261246           # bohr per Angstrom
LOUT = 24                     # orders reported
THRS = (1e-8, 1e-6)           # Eh
BOXES = (4.0, 6.0, 8.0, 12.0)
WSS = (1, 2)
CLUSTERS = tuple(os.environ.get('FF_CLUSTERS', '014 032 064 128 256 512').split())
MODELS = (('O 8, H 1', {'O': 8.0, 'H': 1.0}), ('O 8.6, H 0.7', {'O': 8.6, 'H': 0.7}))
TAIL_EPS = 1e-22              # stop the direct tail once the worst pair's term is this relative size
LCAP = 160                    # ... or here; the rest is then exact minus partial
CHUNK = 1 << 18               # pairs per chunk: 26 orders x 2^18 x 8 bytes stays ~50 MB

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, '..', '..', '..'))
moldir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, 'inputs', 'molecules')

failed = []
def check(ok, msg):
    print(('CHECK ok     ' if ok else 'CHECK FAILED ') + msg)
    if not ok:
        failed.append(msg)

def read_xyz(path):
    with open(path) as f:
        n = int(f.readline()); f.readline()
        rows = [f.readline().split() for _ in range(n)]
    el = np.array([r[0] for r in rows])
    # the split model moves charge within a water, so the O H H order is load-bearing
    assert n % 3 == 0 and all((el[0::3] == 'O')) and all(el[1::3] == 'H') and all(el[2::3] == 'H'), path
    return el, np.array([[float(v) for v in r[1:4]] for r in rows]) * BOHR

def series(X, Y, lout, lmax):
    """For 1/|X - Y| = (1/|X|) sum_l u_l, u_l = rho^l P_l(cos), rho = |Y|/|X|: returns 1/|X|,
    U[l] = u_l for l <= lout, T[L] = sum_{lout >= l > L} u_l + sum_{lmax >= l > lout} u_l, and
    S = sum_{l <= lmax} u_l. u_l is recurred directly (not rho^l times P_l) so nothing under- or
    overflows; the forward Legendre recurrence is stable for |cos| <= 1."""
    rx = np.sqrt(np.einsum('ij,ij->i', X, X))
    ry = np.sqrt(np.einsum('ij,ij->i', Y, Y))
    dot = np.einsum('ij,ij->i', X, Y)
    rho = ry / rx
    crho = np.divide(dot, rx * rx)            # = cos * rho, finite also when |Y| = 0
    rho2 = rho * rho
    n = len(rx)
    U = np.empty((lout + 1, n))
    U[0] = 1.0
    U[1] = crho
    high = np.zeros(n)
    up, u = U[0].copy(), U[1].copy()
    tmp = np.empty(n)
    for l in range(1, lmax):
        # u_{l+1} = ((2l+1) cos rho u_l - l rho^2 u_{l-1}) / (l+1)
        np.multiply(crho, u, out=tmp); tmp *= (2 * l + 1) / (l + 1)
        up *= rho2; up *= l / (l + 1)
        np.subtract(tmp, up, out=up)          # up now holds u_{l+1}
        up, u = u, up
        if l + 1 <= lout:
            U[l + 1] = u
        else:
            high += u
    T = np.empty((lout + 1, n))
    T[lout] = high
    for L in range(lout - 1, -1, -1):
        T[L] = T[L + 1] + U[L + 1]
    S = T[0] + U[0]
    return 1.0 / rx, rho, U, T, S

def tails(X, Y, r):
    """Geometric truncation error per pair for L = 0..LOUT, as exact - truncated (a positive
    tail means truncation underestimates), the lmax used, and whether it stopped at LCAP."""
    rho_max = float(np.max(np.sqrt(np.einsum('ij,ij->i', Y, Y) / np.einsum('ij,ij->i', X, X))))
    # smallest lmax whose left-out terms are bounded by TAIL_EPS (relative, worst pair)
    lmax = LOUT + 1 if rho_max <= 0 else int(math.ceil(math.log(TAIL_EPS * (1 - rho_max)) / math.log(rho_max))) - 1
    lmax = min(max(lmax, LOUT + 1), LCAP)
    irx, rho, U, T, S = series(X, Y, LOUT, lmax)
    T *= irx
    capped = lmax == LCAP and rho_max ** (lmax + 1) / (1 - rho_max) > TAIL_EPS
    if capped:
        T += (1.0 / r - S * irx)              # what the direct tail left out
    return T, lmax, capped

def cartesian_degree_parts(X, Y, lmax):
    """Degree-n parts, n <= lmax, of the Cartesian Taylor series of 1/|X - Y| in Y, from the
    McMurchie-Davidson recursion R^n_{t+1,u,v} = t R^{n+1}_{t-1,u,v} + X_x R^{n+1}_{t,u,v} with
    R^n_000 = (-1)^n (2n-1)!! / |X|^(2n+1): the derivative tensors a J engine's far field uses."""
    r = math.sqrt(float(X @ X))
    memo = {}
    def R(n, t, u, v):
        key = (n, t, u, v)
        if key in memo:
            return memo[key]
        if t < 0 or u < 0 or v < 0:
            val = 0.0
        elif t == u == v == 0:
            val = (-1) ** n * math.prod(range(1, 2 * n, 2)) / r ** (2 * n + 1)
        elif t > 0:
            val = (t - 1) * R(n + 1, t - 2, u, v) + X[0] * R(n + 1, t - 1, u, v)
        elif u > 0:
            val = (u - 1) * R(n + 1, t, u - 2, v) + X[1] * R(n + 1, t, u - 1, v)
        else:
            val = (v - 1) * R(n + 1, t, u, v - 2) + X[2] * R(n + 1, t, u, v - 1)
        memo[key] = val
        return val
    parts = []
    for deg in range(lmax + 1):
        s = 0.0
        for t in range(deg + 1):
            for u in range(deg - t + 1):
                v = deg - t - u
                # f(X - Y) = sum_alpha (-Y)^alpha / alpha! d^alpha f(X)
                s += ((-Y[0]) ** t * (-Y[1]) ** u * (-Y[2]) ** v
                      / (math.factorial(t) * math.factorial(u) * math.factorial(v)) * R(0, t, u, v))
        parts.append(s)
    return np.array(parts)

def smallest_L(err, thr):
    """Smallest L with |err| below thr there and at every higher reported order (errors oscillate in
    sign, so one lucky zero crossing does not count)."""
    below = np.abs(err) < thr
    for L in range(LOUT + 1):
        if below[L:].all():
            return str(L)
    return 'none<=%d' % LOUT

def fmt_L(s):
    return s if s.startswith('none') else 'L=' + s

class Geometry:
    """Pairs, boxes and their far pairs for one cluster; charges enter only as weights."""
    def __init__(self, el, pos):
        self.el, self.pos, self.n = el, pos, len(el)
        self.iu, self.ju = np.triu_indices(self.n, 1)
        self.r = np.linalg.norm(pos[self.iu] - pos[self.ju], axis=1)
        self.lo = pos.min(axis=0)

    def boxes(self, b):
        idx = np.floor((self.pos - self.lo) / b).astype(np.int64)
        dims = idx.max(axis=0) + 1
        lin = (idx[:, 0] * dims[1] + idx[:, 1]) * dims[2] + idx[:, 2]
        centre = self.lo + (idx + 0.5) * b
        return idx, lin, centre, dims

def run_config(g, b, ws, qs):
    idx, lin, centre, dims = g.boxes(b)
    iu, ju = g.iu, g.ju
    cheb = np.abs(idx[iu] - idx[ju]).max(axis=1)
    far = cheb > ws
    fi, fj, fr = iu[far], ju[far], g.r[far]
    # bra in the lower box, ket (the expanded one) in the higher: each far box pair once
    swap = lin[fi] > lin[fj]
    bra = np.where(swap, fj, fi); ket = np.where(swap, fi, fj)
    key = lin[bra] * int(np.prod(dims)) + lin[ket]
    bp_keys, inv = np.unique(key, return_inverse=True)
    nbp = len(bp_keys)
    out = {'nfar': int(far.sum()), 'npairs': len(iu), 'nbp': nbp,
           'occupied': len(np.unique(lin)), 'lmax': {}, 'models': [], 'capped': False}
    W = [q[bra] * q[ket] for q in qs]
    acc = {v: [np.zeros((LOUT + 1, nbp)) for _ in qs] for v in ('M2P', 'M2L')}
    for s in range(0, len(bra), CHUNK):
        sl = slice(s, s + CHUNK)
        xb, xk = g.pos[bra[sl]], g.pos[ket[sl]]
        cb, ck = centre[bra[sl]], centre[ket[sl]]
        for v, X, Y in (('M2P', xb - ck, xk - ck), ('M2L', cb - ck, (xk - ck) - (xb - cb))):
            T, lmax, capped = tails(X, Y, fr[sl])
            out['lmax'][v] = max(out['lmax'].get(v, 0), lmax)
            out['capped'] = out['capped'] or capped
            for m in range(len(qs)):
                w = W[m][sl]
                for L in range(LOUT + 1):
                    # error = truncated - exact = -tail, accumulated per box pair
                    acc[v][m][L] -= np.bincount(inv[sl], weights=w * T[L], minlength=nbp)
    for m, q in enumerate(qs):
        wall = q[iu] * q[ju]
        e_pairs = wall / g.r
        res = {'far_q': float(wall[far].sum() / wall.sum()),
               'E_far': float(e_pairs[far].sum()), 'E_near': float(e_pairs[~far].sum())}
        for v in ('M2P', 'M2L'):
            res[v + '_err'] = acc[v][m].sum(axis=1)
            res[v + '_abs'] = np.abs(acc[v][m]).sum(axis=1)
        out['models'].append(res)
    return out

def series_checks(g, q):
    """Checks on single far box pairs of one cluster, b = 8."""
    b = 8.0
    idx, lin, centre, dims = g.boxes(b)
    occ = {}
    for i, l in enumerate(lin):
        occ.setdefault(int(l), []).append(i)
    boxes = sorted(occ)
    def pick(cheb_wanted):
        # the most populated box pair at exactly this Chebyshev distance: the hardest for the series
        best = None
        for a in boxes:
            for c in boxes:
                if c <= a:
                    continue
                d = int(np.abs(idx[occ[a][0]] - idx[occ[c][0]]).max())
                if d == cheb_wanted:
                    w = len(occ[a]) * len(occ[c])
                    if best is None or w > best[0]:
                        best = (w, a, c)
        return np.array(occ[best[1]]), np.array(occ[best[2]])
    def pair_arrays(A, B, mode):
        ii, jj = np.repeat(A, len(B)), np.tile(B, len(A))
        cA, cB = centre[A[0]], centre[B[0]]
        if mode == 'M2P':
            X, Y = g.pos[ii] - cB, g.pos[jj] - cB
        else:
            X = np.broadcast_to(cA - cB, (len(ii), 3)).copy()
            Y = (g.pos[jj] - cB) - (g.pos[ii] - cA)
        w = q[ii] * q[jj]
        r = np.linalg.norm(g.pos[ii] - g.pos[jj], axis=1)
        return X, Y, w, r
    for ws, mode, Lbig in ((2, 'M2P', 30), (1, 'M2P', 80), (2, 'M2L', 80)):
        A, B = pick(ws + 1)
        X, Y, w, r = pair_arrays(A, B, mode)
        exact = float(np.sum(w / r))
        irx, rho, U, T, S = series(X, Y, LOUT, Lbig)
        approx = float(np.sum(w * S * irx))
        rel = abs(approx - exact) / exact
        rel4 = abs(float(np.sum(w * (S - T[4]) * irx)) - exact) / exact   # so the check is not vacuous
        check(rel < 1e-12, '%s series to L=%d on one far box pair (ws=%d, %dx%d charges, max |y|/|x| %.3f) '
              'equals the exact pair energy: rel diff %.1e (at L=4: %.1e)' % (mode, Lbig, ws, len(A), len(B), rho.max(), rel, rel4))
    # monopole: the L = 0 term is the ket box's total charge at its centre, seen by each bra charge
    A, B = pick(2)
    X, Y, w, r = pair_arrays(A, B, 'M2P')
    irx, rho, U, T, S = series(X, Y, LOUT, LOUT + 1)
    l0 = float(np.sum(w * U[0] * irx))
    QB = q[B].sum()
    mono = float(sum(q[i] * QB / np.linalg.norm(g.pos[i] - centre[B[0]]) for i in A))
    check(abs(l0 - mono) <= 1e-14 * abs(mono), 'M2P L=0 term %.15g equals sum_i q_i Q_B/|x_i - C_B| %.15g' % (l0, mono))
    # Cartesian Taylor (the R_tuv a J engine would use) and Legendre agree degree by degree
    worst, npick = 0.0, 0
    for k in np.linspace(0, len(A) * len(B) - 1, 5).astype(int):
        irx1, rho1, U1, T1, S1 = series(X[k:k + 1], Y[k:k + 1], 10, 11)
        cart = cartesian_degree_parts(X[k], Y[k], 10)
        leg = U1[:, 0] * irx1[0]
        # each degree against its natural size |y|^n / |x|^(n+1)
        scale = irx1[0] * rho1[0] ** np.arange(11)
        worst = max(worst, float(np.max(np.abs(cart - leg) / scale)))
        npick += 1
    check(worst < 1e-11, 'Cartesian Taylor degree parts (McMurchie-Davidson R_tuv) equal the Legendre terms, '
          'degrees 0..10, %d pairs: max diff %.1e of |y|^n/|x|^(n+1)' % (npick, worst))
    # errors fall with L on a well-separated pair, and stay under the geometric bound
    for mode, ws in (('M2P', 1), ('M2P', 2), ('M2L', 2)):
        A, B = pick(ws + 2)
        X, Y, w, r = pair_arrays(A, B, mode)
        T, lmax, capped = tails(X, Y, r)
        err = np.abs(T @ w)
        env = np.maximum.accumulate(err[::-1])[::-1]
        irx, rho, _, _, _ = series(X, Y, 1, 2)
        bound = np.array([np.sum(np.abs(w) * irx * rho ** (L + 1) / (1 - rho)) for L in range(LOUT + 1)])
        falls = all(env[L + 3] < env[L] for L in range(LOUT - 2))
        ratio = (env[LOUT] / env[0]) ** (1.0 / LOUT)
        check(falls and ratio < rho.max() and np.all(err <= bound),
              '%s errors fall with L on a well-separated pair (ws=%d pair at Chebyshev distance %d): '
              '|err| L=0 %.2e, L=12 %.2e, L=24 %.2e; mean ratio per order %.3f < max |y|/|x| %.3f; under bound'
              % (mode, ws, ws + 2, err[0], err[12], err[24], ratio, rho.max()))

def main():
    t0 = time.perf_counter()
    print('far-field-multipoles.py: J far-field truncation error, point-charge model (see header)')
    print('boxes b (bohr) %s, ws %s, orders 0..%d; error = truncated - exact (Eh); |sum| = sum over far box'
          % (list(BOXES), list(WSS), LOUT))
    print('pairs of |that box pair\'s error| (ignores cancellation between box pairs)')
    print('smallest L: |error| below the threshold there and at every higher order up to %d' % LOUT)
    print()
    results = {}
    for name in CLUSTERS:
        path = os.path.join(moldir, 'water-%s.xyz' % name)
        el, pos = read_xyz(path)
        g = Geometry(el, pos)
        qs = [np.array([m[e] for e in el]) for _, m in MODELS]
        tc = time.perf_counter()
        if name == '128':
            print('series checks on water-%s, b = 8 bohr, charges %s:' % (name, MODELS[0][0]))
            series_checks(g, qs[0])
            print()
        # total E_J by a different route (full matrix) to check near + far against
        Etot = []
        for q in qs:
            e = 0.0
            for s in range(0, g.n, 256):
                d = np.linalg.norm(pos[s:s + 256, None, :] - pos[None, :, :], axis=2)
                d[np.arange(d.shape[0]), np.arange(s, s + d.shape[0])] = np.inf
                e += 0.5 * float(np.sum(q[s:s + 256, None] * q[None, :] / d))
            Etot.append(e)
        ext = pos.max(axis=0) - pos.min(axis=0)
        print('=' * 100)
        print('water-%s: %d charges, %d pairs, extent %.1f x %.1f x %.1f bohr, E_J %.6f Eh (O 8/H 1), %.6f Eh (O 8.6/H 0.7)'
              % (name, g.n, len(g.iu), ext[0], ext[1], ext[2], Etot[0], Etot[1]))
        print('  1e-8 Eh is %.1e of E_J' % (1e-8 / Etot[0]))
        cfg = {}
        worst = 0.0
        for b in BOXES:
            for ws in WSS:
                o = run_config(g, b, ws, qs)
                cfg[(b, ws)] = o
                for m, res in enumerate(o['models']):
                    worst = max(worst, abs(res['E_near'] + res['E_far'] - Etot[m]) / Etot[m])
        check(worst <= 1e-12, 'water-%s: near + far exact energies add up to the directly computed E_J, every '
              '(b, ws) and both charge models: max rel diff %.1e' % (name, worst))
        results[name] = cfg
        keys = [(b, ws) for b in BOXES for ws in WSS]
        print()
        print('  %-22s' % 'b, ws' + ''.join('%12s' % ('%g,%d' % k) for k in keys))
        print('  %-22s' % 'occupied boxes' + ''.join('%12d' % cfg[k]['occupied'] for k in keys))
        print('  %-22s' % 'charges / occ. box' + ''.join('%12.2f' % (g.n / cfg[k]['occupied']) for k in keys))
        print('  %-22s' % 'far box pairs' + ''.join('%12d' % cfg[k]['nbp'] for k in keys))
        print('  %-22s' % 'far atom pairs' + ''.join('%12.4f' % (cfg[k]['nfar'] / cfg[k]['npairs']) for k in keys))
        print('  %-22s' % 'tail summed to l (M2P)' + ''.join('%12d' % cfg[k]['lmax'].get('M2P', 0) for k in keys))
        print('  %-22s' % 'tail summed to l (M2L)' + ''.join('%12d' % cfg[k]['lmax'].get('M2L', 0) for k in keys))
        print('  %-22s' % 'tail: exact - partial' + ''.join('%12s' % ('past l=%d' % LCAP if cfg[k]['capped'] else 'never') for k in keys))
        for m, (mname, _) in enumerate(MODELS):
            print()
            print('  charges %s' % mname)
            print('  %-22s' % 'far q_i q_j pairs' + ''.join('%12.4f' % cfg[k]['models'][m]['far_q'] for k in keys))
            print('  %-22s' % 'E_far exact (Eh)' + ''.join('%12.3f' % cfg[k]['models'][m]['E_far'] for k in keys))
            for v in ('M2P', 'M2L'):
                for kind, label in (('_err', 'error'), ('_abs', '|sum|')):
                    print('  %s %s (Eh) by L' % (v, label))
                    for L in range(LOUT + 1):
                        print('  %-22s' % ('L=%d' % L) + ''.join('%12.3e' % cfg[k]['models'][m][v + kind][L] for k in keys))
                for thr in THRS:
                    for kind, label in (('_err', 'error'), ('_abs', '|sum|')):
                        print('  %-22s' % ('%s %s < %g' % (v, label, thr))
                              + ''.join('%12s' % fmt_L(smallest_L(cfg[k]['models'][m][v + kind], thr)) for k in keys))
        print('  (%.1f s)' % (time.perf_counter() - tc))
        print()
    print('=' * 100)
    print('SUMMARY: which (b, ws, L) reach 1e-8 Eh (smallest L, signed error; |sum| in brackets), and the')
    print('share of the pair work they leave to the far field (atom pairs; q_i q_j-weighted in brackets)')
    for name in [n for n in ('256', '512') if n in results]:
        for m, (mname, _) in enumerate(MODELS):
            print('water-%s, charges %s:' % (name, mname))
            print('  %-6s %-3s %-17s %-20s %-20s %-20s %-20s' % ('b', 'ws', 'far share', 'M2P 1e-8', 'M2P 1e-6', 'M2L 1e-8', 'M2L 1e-6'))
            for b in BOXES:
                for ws in WSS:
                    o = results[name][(b, ws)]
                    res = o['models'][m]
                    cells = []
                    for v in ('M2P', 'M2L'):
                        for thr in THRS:
                            cells.append('%s [%s]' % (fmt_L(smallest_L(res[v + '_err'], thr)),
                                                      fmt_L(smallest_L(res[v + '_abs'], thr))))
                    print('  %-6g %-3d %-17s %-20s %-20s %-20s %-20s' % (
                        b, ws, '%.3f [%.3f]' % (o['nfar'] / o['npairs'], res['far_q']), *cells))
    print('Cartesian multipole components up to degree L, C(L+3,3):',
          ', '.join('L=%d %d' % (L, math.comb(L + 3, 3)) for L in (4, 8, 12, 16, 20, 24)))
    print('(M2P replaces a bra row\'s pass over a far box\'s ket rows by one over C(L+3,3) components;')
    print(' it pays only where a box holds more ket Hermite components than that.)')
    print()
    print('run time %.1f s' % (time.perf_counter() - t0))
    if failed:
        print('%d CHECKS FAILED' % len(failed))
        sys.exit(1)
    print('all checks passed')

if __name__ == '__main__':
    main()
