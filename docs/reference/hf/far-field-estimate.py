# An estimate for docs/performance-notes.md ("what a far-field screen could drop"): of the
# quartets that density screening at 1e-12 keeps (Q_P Q_Q max|D| >= thr over the Coulomb and
# exchange pairings), how many a distance-aware estimate would drop: Q_P Q_Q max|D| / R' < thr
# where the pairs' charge distributions are separated, R' their centres' distance less the
# spread of their primitive centres, separated where erfc(sqrt(rho) R') < eps for the most
# diffuse primitives' reduced exponent rho. The density is a proxy: each molecule's own RHF
# density, none between molecules. Not part of kmini; needs PySCF and NumPy (pip).
#
#   python3 estimate.py inputs/molecules/water-064.xyz 6-31g 8   (every 8th bra pair sampled)
import sys, numpy as np
from scipy.special import erfcinv
from pyscf import gto, scf
xyz, basis, stride = sys.argv[1], sys.argv[2], int(sys.argv[3])
eps = float(sys.argv[4]) if len(sys.argv) > 4 else 1e-10
thr = 1e-12
lines = open(xyz).read().split('\n')[2:]
atoms = [l.split() for l in lines if l.strip()]
mol = gto.M(atom=[(a[0], tuple(map(float, a[1:4]))) for a in atoms], basis=basis, unit='Angstrom', verbose=0)
nsh, nao = mol.nbas, mol.nao
ao_loc = mol.ao_loc_nr()
D = np.zeros((nao, nao))
nmol = len(atoms) // 3
sh_atom = np.array([mol.bas_atom(i) for i in range(nsh)])
for m in range(nmol):
    mono = gto.M(atom=[(a[0], tuple(map(float, a[1:4]))) for a in atoms[3*m:3*m+3]], basis=basis, unit='Angstrom', verbose=0)
    mf = scf.RHF(mono); mf.conv_tol = 1e-10; mf.kernel()
    shells = np.where((sh_atom >= 3*m) & (sh_atom < 3*m+3))[0]
    lo, hi = ao_loc[shells[0]], ao_loc[shells[-1]+1]
    D[lo:hi, lo:hi] = mf.make_rdm1()
Dsh = np.zeros((nsh, nsh))
for i in range(nsh):
    for j in range(nsh):
        Dsh[i, j] = np.abs(D[ao_loc[i]:ao_loc[i+1], ao_loc[j]:ao_loc[j+1]]).max()
coords = mol.atom_coords()
# Schwarz per pair: sqrt(max |(ij|ij)|), from PySCF's direct-SCF conditions
from pyscf.scf import _vhf
opt = _vhf.VHFOpt(mol, 'int2e', 'CVHFnrs8_prescreen', 'CVHFsetnr_direct_scf', 'CVHFsetnr_direct_scf_dm')
qc = np.asarray(opt.q_cond)
qmax = qc.max()
ii, jj = np.tril_indices(nsh)
sel = qc[ii, jj] * qmax >= thr
pairs = list(zip(ii[sel], jj[sel], qc[ii[sel], jj[sel]]))
pairs = [p for p in pairs if p[2] * qmax >= thr]
n = len(pairs)
pi = np.array([p[0] for p in pairs]); pj = np.array([p[1] for p in pairs]); pq = np.array([p[2] for p in pairs])
# pair centre, reduced exponent and spread (most diffuse primitives; spread over all primitive centres)
cen = np.zeros((n, 3)); zeta = np.zeros(n); spread = np.zeros(n)
for k, (i, j, q) in enumerate(pairs):
    A, B = coords[sh_atom[i]], coords[sh_atom[j]]
    ea, eb = mol.bas_exp(i), mol.bas_exp(j)
    a, b = ea.min(), eb.min()
    cen[k] = (a*A + b*B)/(a+b); zeta[k] = a + b
    allc = [(x*A + y*B)/(x+y) for x in ea for y in eb]
    spread[k] = max(np.linalg.norm(c - cen[k]) for c in allc)
Dp = Dsh[pi, pj]
kept = sep = 0
far_dropped = {1.0: 0, 4.0: 0}
erfc_arg = erfcinv(eps)
for P in range(0, n, stride):
    Qs = np.arange(P+1)
    bound = pq[P] * pq[Qs]
    dmax = np.maximum(np.maximum(Dp[P], Dp[Qs]),
                      np.maximum(np.maximum(Dsh[pi[P], pi[Qs]], Dsh[pj[P], pj[Qs]]),
                                 np.maximum(Dsh[pi[P], pj[Qs]], Dsh[pj[P], pi[Qs]])))
    keep = bound * dmax >= thr
    R = np.linalg.norm(cen[Qs] - cen[P], axis=1)
    rho = zeta[P]*zeta[Qs]/(zeta[P]+zeta[Qs])
    Rp = R - spread[P] - spread[Qs]
    separated = (Rp * np.sqrt(rho) > erfc_arg) & (Rp > 1.0)
    kept += keep.sum(); sep += (keep & separated).sum()
    for f in far_dropped:
        far_keep = np.where(separated, f * bound * dmax / np.maximum(Rp, 1.0), bound * dmax) >= thr
        far_dropped[f] += (keep & ~far_keep).sum()
print(f"{xyz.split('/')[-1]} {basis}: shells {nsh}, pairs {n}, stride {stride}, eps {eps}")
print(f"  kept by density screening (scaled): {kept*stride:.3e}; separated among them: {sep/kept:.1%}; dropped by the far-field estimate: {far_dropped[1.0]/kept:.1%} (x4 safety: {far_dropped[4.0]/kept:.1%})")
