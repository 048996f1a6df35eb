// Glickman, "Example of the Glicko-2 system" (2013): the step numbers below are the paper's.
#include "eryantis/ratings/glicko2.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace eryantis::ratings {

namespace {
constexpr int kMaxIterations = 100;

double to_mu(double rating) {
  return (rating - 1500.0) / kGlickoScale;
}
double to_phi(double deviation) {
  return deviation / kGlickoScale;
}
double cap_phi(double phi, const Glicko2Params& params) {
  return std::min(phi, to_phi(params.max_deviation));
}
}  // namespace

namespace steps {

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double e(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

double new_volatility(double sigma, double phi, double v, double delta, double tau, double epsilon,
                      int* iterations) {
  const double a = std::log(sigma * sigma);
  const double phi2 = phi * phi;
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double denom = phi2 + v + ex;
    return ex * (delta * delta - phi2 - v - ex) / (2.0 * denom * denom) - (x - a) / (tau * tau);
  };
  double big_a = a;
  double big_b = 0.0;
  if (delta * delta > phi2 + v) {
    big_b = std::log(delta * delta - phi2 - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0.0 && k < kMaxIterations) ++k;
    big_b = a - k * tau;
  }
  double f_a = f(big_a);
  double f_b = f(big_b);
  int n = 0;
  while (std::abs(big_b - big_a) > epsilon && n < kMaxIterations) {
    ++n;
    const double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
    const double f_c = f(big_c);
    if (f_c * f_b <= 0.0) {
      big_a = big_b;
      f_a = f_b;
    } else {
      f_a = f_a / 2.0;
    }
    big_b = big_c;
    f_b = f_c;
  }
  if (iterations) *iterations = n;
  return std::exp(big_a / 2.0);
}

double new_phi(double phi, double new_sigma, double v) {
  const double phi_star = std::sqrt(phi * phi + new_sigma * new_sigma);
  return 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
}

double new_mu(double mu, double new_phi, double weighted_sum) {
  return mu + new_phi * new_phi * weighted_sum;
}

}  // namespace steps

double expected_score(const Rating& a, const Rating& b) {
  return steps::e(to_mu(a.rating), to_mu(b.rating), to_phi(b.deviation));
}

Rating widened(const Rating& player, double idle_periods, const Glicko2Params& params) {
  if (!(idle_periods > 0.0)) return player;
  const double phi = to_phi(player.deviation);
  const double sigma = player.volatility;
  const double wider = cap_phi(std::sqrt(phi * phi + sigma * sigma * idle_periods), params);
  // Never narrower: a deviation already above the cap (an odd configuration) stays.
  if (wider <= phi) return player;
  return Rating{player.rating, wider * kGlickoScale, player.volatility};
}

Glicko2Update glicko2_update(const Rating& player, std::span<const Encounter> encounters,
                             const Glicko2Params& params, double idle_periods) {
  // Step 2 (after the idle periods' widening: step 6 without a game, once per period).
  const Rating start = widened(player, idle_periods, params);
  const double mu = to_mu(start.rating);
  const double phi = to_phi(start.deviation);

  Glicko2Update out;
  // Steps 3 and 4, each encounter counted `weight` times.
  double inverse_v = 0.0;
  double sum = 0.0;
  for (const Encounter& enc : encounters) {
    if (!(enc.weight > 0.0)) continue;
    const double mu_j = to_mu(enc.opponent.rating);
    const double phi_j = to_phi(enc.opponent.deviation);
    const double g_j = steps::g(phi_j);
    const double e_j = steps::e(mu, mu_j, phi_j);
    inverse_v += enc.weight * g_j * g_j * e_j * (1.0 - e_j);
    sum += enc.weight * g_j * (enc.score - e_j);
  }
  if (!(inverse_v > 0.0)) {
    // No game this period: only φ grows (step 6 with the old σ).
    out.after = widened(start, 1.0, params);
    return out;
  }
  const double v = 1.0 / inverse_v;
  out.variance = v;
  out.improvement = v * sum;
  // Steps 5 to 8.
  const double sigma = steps::new_volatility(start.volatility, phi, v, out.improvement, params.tau,
                                             params.epsilon, &out.iterations);
  const double phi_new = cap_phi(steps::new_phi(phi, sigma, v), params);
  const double mu_new = steps::new_mu(mu, phi_new, sum);
  out.after = Rating{kGlickoScale * mu_new + 1500.0, kGlickoScale * phi_new, sigma};
  return out;
}

}  // namespace eryantis::ratings
