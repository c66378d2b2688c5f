// The reference integrals of hf_reference.hpp: McMurchie-Davidson as Helgaker, Jorgensen and
// Olsen, "Molecular Electronic-Structure Theory", ch. 9, write it, term by term, in long double.
//
// Each integral over primitives is a sum over Hermite Gaussians: the Gaussian product theorem
// turns a product of two Cartesian Gaussians into Hermite Gaussians at their product centre P
// with coefficients E_t^{ij} (one set per direction), and the Coulomb integrals over Hermite
// Gaussians are the R_{tuv} of the Boys function. Nothing is cached or screened: every block
// recomputes every table from the shells.
#include "support/hf_reference.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace kmini::test::hf_reference {
namespace {

using Real = long double;
using Vec3 = std::array<Real, 3>;
using Powers = std::array<int, 3>;  // the Cartesian powers (lx, ly, lz) of one function

constexpr Real kPi = 3.141592653589793238462643383279502884L;

// ---------------------------------------------------------------------------------------------
// Boys function

struct QuadratureRule {
  std::vector<Real> nodes;  // on [-1, 1]
  std::vector<Real> weights;
};

// P_n(x) and P_n'(x) by Bonnet's recurrence.
void legendre(int n, Real x, Real& value, Real& derivative) {
  Real previous = 1;
  Real current = x;
  for (int k = 2; k <= n; ++k) {
    const Real next = ((2 * k - 1) * x * current - (k - 1) * previous) / k;
    previous = current;
    current = next;
  }
  value = current;
  derivative = n * (x * current - previous) / (x * x - 1);
}

// The n-point Gauss-Legendre rule: Newton's method on P_n from the usual cosine estimates of its
// roots, which are close enough that Newton converges to each root without skipping one.
QuadratureRule gauss_legendre(int n) {
  QuadratureRule rule;
  for (int i = 0; i < n; ++i) {
    Real x = std::cos(kPi * (i + 0.75L) / (n + 0.5L));
    Real value = 0;
    Real derivative = 0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      legendre(n, x, value, derivative);
      const Real step = value / derivative;
      x -= step;
      if (std::fabs(step) < 1e-20L) break;
    }
    legendre(n, x, value, derivative);
    rule.nodes.push_back(x);
    rule.weights.push_back(2 / ((1 - x * x) * derivative * derivative));
  }
  return rule;
}

}  // namespace

std::vector<long double> reference_boys_all(int m_max, long double t) {
  if (m_max < 0 || !(t >= 0)) {
    throw std::invalid_argument("reference_boys_all: needs m_max >= 0 and T >= 0, got m_max " +
                                std::to_string(m_max) + ", T " + std::to_string(double(t)));
  }
  static const QuadratureRule rule = gauss_legendre(24);
  // The integrand peaks at s = sqrt(m / T) and falls off as a Gaussian of width 1 / sqrt(2T), so
  // past s = (sqrt(m) + 13) / sqrt(T) what is left is below exp(-169) of the integral: cutting
  // the range there keeps the peak resolved by the same panels for every T.
  const Real reach = std::sqrt(Real(m_max)) + 13;
  const Real upper = t > reach * reach ? reach / std::sqrt(t) : 1;
  // 16 panels of 24 points integrate exp(-x s^2) for x up to about 300 on [0, 1] (the range
  // after the cut) to long double rounding; the tests of the reference check this against
  // closed forms.
  constexpr int kPanels = 16;
  const Real width = upper / kPanels;
  std::vector<long double> f(m_max + 1, 0);
  for (int panel = 0; panel < kPanels; ++panel) {
    std::vector<Real> panel_sum(m_max + 1, 0);
    for (std::size_t k = 0; k < rule.nodes.size(); ++k) {
      const Real s = width * (panel + (rule.nodes[k] + 1) / 2);
      Real term = rule.weights[k] * std::exp(-t * s * s);
      for (int m = 0; m <= m_max; ++m) {
        panel_sum[m] += term;
        term *= s * s;
      }
    }
    for (int m = 0; m <= m_max; ++m)
      f[m] += panel_sum[m] * width / 2;
  }
  return f;
}

long double reference_boys(int m, long double t) {
  return reference_boys_all(m, t)[m];
}

namespace {

// ---------------------------------------------------------------------------------------------
// Hermite expansion coefficients E_t^{ij} for one Cartesian direction (HJO eqs. 9.5.6-9.5.7):
// x_A^i x_B^j exp(-a x_A^2 - b x_B^2) = sum_t E_t^{ij} Lambda_t(x_P), with p = a + b.
class HermiteE {
 public:
  HermiteE(int i_max, int j_max, Real a, Real b, Real a_x, Real b_x)
      : i_max_(i_max), j_max_(j_max), e_((i_max + 1) * (j_max + 1) * (i_max + j_max + 1), 0) {
    const Real p = a + b;
    const Real mu = a * b / p;
    const Real p_x = (a * a_x + b * b_x) / p;
    const Real x_ab = a_x - b_x;
    const Real x_pa = p_x - a_x;
    const Real x_pb = p_x - b_x;
    at(0, 0, 0) = std::exp(-mu * x_ab * x_ab);
    for (int i = 0; i < i_max; ++i) {
      for (int t = 0; t <= i + 1; ++t) {
        at(i + 1, 0, t) = (*this)(i, 0, t - 1) / (2 * p) + x_pa * (*this)(i, 0, t) +
                          (t + 1) * (*this)(i, 0, t + 1);
      }
    }
    for (int i = 0; i <= i_max; ++i) {
      for (int j = 0; j < j_max; ++j) {
        for (int t = 0; t <= i + j + 1; ++t) {
          at(i, j + 1, t) = (*this)(i, j, t - 1) / (2 * p) + x_pb * (*this)(i, j, t) +
                            (t + 1) * (*this)(i, j, t + 1);
        }
      }
    }
  }

  // E_t^{ij}, which is 0 for t outside [0, i + j].
  Real operator()(int i, int j, int t) const {
    if (t < 0 || t > i + j) return 0;
    return e_[index(i, j, t)];
  }

 private:
  std::size_t index(int i, int j, int t) const {
    if (i < 0 || i > i_max_ || j < 0 || j > j_max_) {
      throw std::logic_error("HermiteE: (i, j) outside the table");
    }
    return (std::size_t(i) * (j_max_ + 1) + j) * (i_max_ + j_max_ + 1) + t;
  }
  Real& at(int i, int j, int t) { return e_[index(i, j, t)]; }

  int i_max_;
  int j_max_;
  std::vector<Real> e_;
};

// The three directions' tables for a primitive pair.
std::array<HermiteE, 3> hermite_e(int i_max, int j_max, Real a, const Vec3& a_center, Real b,
                                  const Vec3& b_center) {
  return {HermiteE(i_max, j_max, a, b, a_center[0], b_center[0]),
          HermiteE(i_max, j_max, a, b, a_center[1], b_center[1]),
          HermiteE(i_max, j_max, a, b, a_center[2], b_center[2])};
}

// ---------------------------------------------------------------------------------------------
// Hermite Coulomb integrals R_{tuv} = R^0_{tuv}(alpha, PC) for t + u + v <= order (HJO eqs.
// 9.9.14 and 9.9.18-9.9.20): R^n_{000} = (-2 alpha)^n F_n(alpha |PC|^2) and
// R^n_{t+1,u,v} = t R^{n+1}_{t-1,u,v} + X_PC R^{n+1}_{t,u,v}, likewise in u and v.
class HermiteR {
 public:
  HermiteR(int order, Real alpha, const Vec3& pc)
      : order_(order), r_(std::size_t(order + 1) * (order + 1) * (order + 1) * (order + 1), 0) {
    const Real t_boys = alpha * (pc[0] * pc[0] + pc[1] * pc[1] + pc[2] * pc[2]);
    const std::vector<Real> f = reference_boys_all(order, t_boys);
    Real power = 1;
    for (int n = 0; n <= order; ++n) {
      at(n, 0, 0, 0) = power * f[n];
      power *= -2 * alpha;
    }
    // Loop order: whatever a term needs has a lower t, or the same t and a lower u, or the same
    // t and u and a lower v, so it is already there.
    for (int t = 0; t <= order; ++t) {
      for (int u = 0; u <= order - t; ++u) {
        for (int v = 0; v <= order - t - u; ++v) {
          if (t + u + v == 0) continue;
          for (int n = 0; n <= order - (t + u + v); ++n) {
            if (t > 0) {
              at(n, t, u, v) = (t - 1) * get(n + 1, t - 2, u, v) + pc[0] * get(n + 1, t - 1, u, v);
            } else if (u > 0) {
              at(n, t, u, v) = (u - 1) * get(n + 1, t, u - 2, v) + pc[1] * get(n + 1, t, u - 1, v);
            } else {
              at(n, t, u, v) = (v - 1) * get(n + 1, t, u, v - 2) + pc[2] * get(n + 1, t, u, v - 1);
            }
          }
        }
      }
    }
  }

  Real operator()(int t, int u, int v) const { return get(0, t, u, v); }

 private:
  std::size_t index(int n, int t, int u, int v) const {
    if (n < 0 || t < 0 || u < 0 || v < 0 || n + t + u + v > order_) {
      throw std::logic_error("HermiteR: index outside the table");
    }
    const std::size_t size = order_ + 1;
    return ((n * size + t) * size + u) * size + v;
  }
  // Terms with a negative index come with a zero factor in the recursion.
  Real get(int n, int t, int u, int v) const {
    if (t < 0 || u < 0 || v < 0) return 0;
    return r_[index(n, t, u, v)];
  }
  Real& at(int n, int t, int u, int v) { return r_[index(n, t, u, v)]; }

  int order_;
  std::vector<Real> r_;
};

// ---------------------------------------------------------------------------------------------
// Shells

constexpr int kMaxL = 2;

int function_count(int l) {
  return (l + 1) * (l + 2) / 2;
}

// The powers of function `function` of a shell of angular momentum l: x^i y^j z^k with i + j + k
// = l, i descending, then j descending (x, y, z; xx, xy, xz, yy, yz, zz).
Powers cartesian_powers(int l, int function) {
  int index = 0;
  for (int i = l; i >= 0; --i) {
    for (int j = l - i; j >= 0; --j) {
      if (index++ == function) return {i, j, l - i - j};
    }
  }
  throw std::logic_error("cartesian_powers: no function " + std::to_string(function) +
                         " for l = " + std::to_string(l));
}

std::vector<Powers> all_powers(int l) {
  std::vector<Powers> powers;
  for (int f = 0; f < function_count(l); ++f)
    powers.push_back(cartesian_powers(l, f));
  return powers;
}

// A shell with its coefficients multiplied out: coefficient[k] is what primitive k is weighted
// by, normalisations included. All the shell's functions share it.
struct NormalisedShell {
  int l = 0;
  Vec3 center{};
  std::vector<Real> exponents;
  std::vector<Real> coefficient;

  int functions() const { return function_count(l); }
};

// The overlap of two unnormalised primitives x_A^i.. exp(-a r_A^2) and x_B^j.. exp(-b r_B^2):
// only the t = 0 Hermite Gaussian has a non-zero integral, (pi / p)^{1/2} per direction.
Real primitive_overlap(const Powers& i, Real a, const Vec3& a_center, const Powers& j, Real b,
                       const Vec3& b_center) {
  const auto e = hermite_e(i[0] + i[1] + i[2], j[0] + j[1] + j[2], a, a_center, b, b_center);
  Real s = std::pow(kPi / (a + b), Real(1.5));
  for (int d = 0; d < 3; ++d)
    s *= e[d](i[d], j[d], 0);
  return s;
}

// Gaussian94's coefficients weight normalised primitives, and one set of weights serves all the
// shell's functions, scaled so that the x^l function has unit self-overlap. The other functions'
// self-overlaps are then (2i-1)!!(2j-1)!!(2k-1)!! / (2l-1)!!: 1 for xx, yy, zz, 1/3 for xy, xz,
// yz. (Normalising primitives by another function of the shell changes every weight by the same
// factor, which the scaling removes.)
NormalisedShell normalise(const hf::GaussianShell& shell) {
  if (shell.l < 0 || shell.l > kMaxL) {
    throw std::invalid_argument("hf_reference: only s, p and d shells, got l = " +
                                std::to_string(shell.l));
  }
  if (shell.exponents.empty() || shell.exponents.size() != shell.coefficients.size()) {
    throw std::invalid_argument("hf_reference: a shell needs as many coefficients as exponents");
  }
  NormalisedShell result;
  result.l = shell.l;
  for (int d = 0; d < 3; ++d)
    result.center[d] = shell.center[d];
  for (double exponent : shell.exponents)
    result.exponents.push_back(exponent);
  const std::size_t primitives = result.exponents.size();
  const Vec3& c = result.center;
  const Powers powers{shell.l, 0, 0};
  std::vector<Real> weights(primitives);
  for (std::size_t k = 0; k < primitives; ++k) {
    const Real a = result.exponents[k];
    weights[k] = shell.coefficients[k] / std::sqrt(primitive_overlap(powers, a, c, powers, a, c));
  }
  Real self_overlap = 0;
  for (std::size_t k = 0; k < primitives; ++k) {
    for (std::size_t m = 0; m < primitives; ++m) {
      self_overlap +=
          weights[k] * weights[m] *
          primitive_overlap(powers, result.exponents[k], c, powers, result.exponents[m], c);
    }
  }
  for (Real& w : weights)
    w /= std::sqrt(self_overlap);
  result.coefficient = weights;
  return result;
}

std::vector<double> to_double(const std::vector<Real>& values) {
  return std::vector<double>(values.begin(), values.end());
}

// A one-electron block: `primitive_block(ka, kb)` gives the integrals over primitives ka of a and
// kb of b for every function pair (row-major), which the contraction then weights.
template <class PrimitiveBlock>
std::vector<double> contract_pair(const NormalisedShell& a, const NormalisedShell& b,
                                  PrimitiveBlock primitive_block) {
  std::vector<Real> block(a.functions() * b.functions(), 0);
  for (std::size_t ka = 0; ka < a.exponents.size(); ++ka) {
    for (std::size_t kb = 0; kb < b.exponents.size(); ++kb) {
      const std::vector<Real> values = primitive_block(ka, kb);
      for (int i = 0; i < a.functions(); ++i) {
        for (int j = 0; j < b.functions(); ++j) {
          block[i * b.functions() + j] +=
              a.coefficient[ka] * b.coefficient[kb] * values[i * b.functions() + j];
        }
      }
    }
  }
  return to_double(block);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Blocks

std::vector<double> reference_overlap(const hf::GaussianShell& a_shell,
                                      const hf::GaussianShell& b_shell) {
  const NormalisedShell a = normalise(a_shell);
  const NormalisedShell b = normalise(b_shell);
  return contract_pair(a, b, [&](std::size_t ka, std::size_t kb) {
    std::vector<Real> values;
    for (int i = 0; i < a.functions(); ++i) {
      for (int j = 0; j < b.functions(); ++j) {
        values.push_back(primitive_overlap(cartesian_powers(a.l, i), a.exponents[ka], a.center,
                                           cartesian_powers(b.l, j), b.exponents[kb], b.center));
      }
    }
    return values;
  });
}

// -1/2 d^2/dx^2 on x_B^j exp(-b x_B^2) gives j(j-1) x_B^{j-2} - 2b(2j+1) x_B^j + 4b^2 x_B^{j+2}
// times the exponential, so the kinetic integral is a sum of overlaps with shifted powers.
std::vector<double> reference_kinetic(const hf::GaussianShell& a_shell,
                                      const hf::GaussianShell& b_shell) {
  const NormalisedShell a = normalise(a_shell);
  const NormalisedShell b = normalise(b_shell);
  return contract_pair(a, b, [&](std::size_t ka, std::size_t kb) {
    const Real alpha = a.exponents[ka];
    const Real beta = b.exponents[kb];
    const auto e = hermite_e(a.l, b.l + 2, alpha, a.center, beta, b.center);
    const Real s_factor = std::sqrt(kPi / (alpha + beta));
    std::vector<Real> values;
    for (int fa = 0; fa < a.functions(); ++fa) {
      for (int fb = 0; fb < b.functions(); ++fb) {
        const Powers i = cartesian_powers(a.l, fa);
        const Powers j = cartesian_powers(b.l, fb);
        Real overlap_1d[3];  // <i|j> in each direction
        Real second_1d[3];   // <i| d^2/dx^2 |j> in each direction
        for (int d = 0; d < 3; ++d) {
          auto s = [&](int jj) { return jj < 0 ? Real(0) : e[d](i[d], jj, 0) * s_factor; };
          const int jd = j[d];
          overlap_1d[d] = s(jd);
          second_1d[d] = jd * (jd - 1) * s(jd - 2) - 2 * beta * (2 * jd + 1) * s(jd) +
                         4 * beta * beta * s(jd + 2);
        }
        values.push_back(-(second_1d[0] * overlap_1d[1] * overlap_1d[2] +
                           overlap_1d[0] * second_1d[1] * overlap_1d[2] +
                           overlap_1d[0] * overlap_1d[1] * second_1d[2]) /
                         2);
      }
    }
    return values;
  });
}

// <a| 1/r_C |b> = 2 pi / p sum_{tuv} E_t^{ij} E_u^{kl} E_v^{mn} R_{tuv}(p, P - C) (HJO 9.9.32).
std::vector<double> reference_nuclear(const hf::GaussianShell& a_shell,
                                      const hf::GaussianShell& b_shell,
                                      const std::vector<hf::PointCharge>& charges) {
  const NormalisedShell a = normalise(a_shell);
  const NormalisedShell b = normalise(b_shell);
  return contract_pair(a, b, [&](std::size_t ka, std::size_t kb) {
    const Real alpha = a.exponents[ka];
    const Real beta = b.exponents[kb];
    const Real p = alpha + beta;
    const auto e = hermite_e(a.l, b.l, alpha, a.center, beta, b.center);
    Vec3 product_center;
    for (int d = 0; d < 3; ++d) {
      product_center[d] = (alpha * a.center[d] + beta * b.center[d]) / p;
    }
    std::vector<Real> values(a.functions() * b.functions(), 0);
    for (const hf::PointCharge& charge : charges) {
      Vec3 pc;
      for (int d = 0; d < 3; ++d)
        pc[d] = product_center[d] - charge.center[d];
      const HermiteR r(a.l + b.l, p, pc);
      for (int fa = 0; fa < a.functions(); ++fa) {
        for (int fb = 0; fb < b.functions(); ++fb) {
          const Powers i = cartesian_powers(a.l, fa);
          const Powers j = cartesian_powers(b.l, fb);
          Real sum = 0;
          for (int t = 0; t <= i[0] + j[0]; ++t) {
            for (int u = 0; u <= i[1] + j[1]; ++u) {
              for (int v = 0; v <= i[2] + j[2]; ++v) {
                sum += e[0](i[0], j[0], t) * e[1](i[1], j[1], u) * e[2](i[2], j[2], v) * r(t, u, v);
              }
            }
          }
          values[fa * b.functions() + fb] -= charge.charge * 2 * kPi / p * sum;
        }
      }
    }
    return values;
  });
}

// (ab|cd) = 2 pi^{5/2} / (p q sqrt(p + q)) sum_{tuv} E^{ab}_{tuv} sum_{t'u'v'} (-1)^{t'+u'+v'}
// E^{cd}_{t'u'v'} R_{t+t',u+u',v+v'}(pq / (p + q), P - Q) (HJO 9.9.33).
std::vector<double> reference_eri(const hf::GaussianShell& a_shell,
                                  const hf::GaussianShell& b_shell,
                                  const hf::GaussianShell& c_shell,
                                  const hf::GaussianShell& d_shell) {
  const NormalisedShell a = normalise(a_shell);
  const NormalisedShell b = normalise(b_shell);
  const NormalisedShell c = normalise(c_shell);
  const NormalisedShell d = normalise(d_shell);
  const int nb = b.functions();
  const int nc = c.functions();
  const int nd = d.functions();
  std::vector<Real> block(a.functions() * nb * nc * nd, 0);
  const std::vector<Powers> a_powers = all_powers(a.l);
  const std::vector<Powers> b_powers = all_powers(b.l);
  const std::vector<Powers> c_powers = all_powers(c.l);
  const std::vector<Powers> d_powers = all_powers(d.l);
  for (std::size_t ka = 0; ka < a.exponents.size(); ++ka) {
    for (std::size_t kb = 0; kb < b.exponents.size(); ++kb) {
      const Real alpha = a.exponents[ka];
      const Real beta = b.exponents[kb];
      const Real p = alpha + beta;
      const auto e_ab = hermite_e(a.l, b.l, alpha, a.center, beta, b.center);
      for (std::size_t kc = 0; kc < c.exponents.size(); ++kc) {
        for (std::size_t kd = 0; kd < d.exponents.size(); ++kd) {
          const Real gamma = c.exponents[kc];
          const Real delta = d.exponents[kd];
          const Real q = gamma + delta;
          const auto e_cd = hermite_e(c.l, d.l, gamma, c.center, delta, d.center);
          Vec3 pq;
          for (int x = 0; x < 3; ++x) {
            pq[x] = (alpha * a.center[x] + beta * b.center[x]) / p -
                    (gamma * c.center[x] + delta * d.center[x]) / q;
          }
          const HermiteR r(a.l + b.l + c.l + d.l, p * q / (p + q), pq);
          const Real prefactor = 2 * std::pow(kPi, Real(2.5)) / (p * q * std::sqrt(p + q));
          for (int fa = 0; fa < a.functions(); ++fa) {
            for (int fb = 0; fb < nb; ++fb) {
              for (int fc = 0; fc < nc; ++fc) {
                for (int fd = 0; fd < nd; ++fd) {
                  const Powers& i = a_powers[fa];
                  const Powers& j = b_powers[fb];
                  const Powers& k = c_powers[fc];
                  const Powers& l = d_powers[fd];
                  Real sum = 0;
                  for (int t = 0; t <= i[0] + j[0]; ++t) {
                    for (int u = 0; u <= i[1] + j[1]; ++u) {
                      for (int v = 0; v <= i[2] + j[2]; ++v) {
                        const Real e_bra = e_ab[0](i[0], j[0], t) * e_ab[1](i[1], j[1], u) *
                                           e_ab[2](i[2], j[2], v);
                        for (int tt = 0; tt <= k[0] + l[0]; ++tt) {
                          for (int uu = 0; uu <= k[1] + l[1]; ++uu) {
                            for (int vv = 0; vv <= k[2] + l[2]; ++vv) {
                              const Real sign = (tt + uu + vv) % 2 == 0 ? 1 : -1;
                              sum += e_bra * sign * e_cd[0](k[0], l[0], tt) *
                                     e_cd[1](k[1], l[1], uu) * e_cd[2](k[2], l[2], vv) *
                                     r(t + tt, u + uu, v + vv);
                            }
                          }
                        }
                      }
                    }
                  }
                  block[((fa * nb + fb) * nc + fc) * nd + fd] +=
                      a.coefficient[ka] * b.coefficient[kb] * c.coefficient[kc] *
                      d.coefficient[kd] * prefactor * sum;
                }
              }
            }
          }
        }
      }
    }
  }
  return to_double(block);
}

}  // namespace kmini::test::hf_reference
