#pragma once
// One player's Glicko-2 update over one rating period, as Glickman's paper "Example of the
// Glicko-2 system" (2013) writes it, steps 1 to 8, with two additions the book (book.hpp)
// needs: a weight per game (a fraction of a game's evidence, for the pairs of a match of
// more than two sides) and idle periods (fractional periods without a game before this one,
// which only widen the deviation, as the paper's step 6 does for a period without games).
// Pure: no clock, no state, no allocation; the same inputs give the same bits.
#include <span>

namespace eryantis::ratings {

// The paper's conversion factor between the Glicko scale and Glicko-2's: 400 / ln(10).
inline constexpr double kGlickoScale = 173.7178;

// A rating on the Glicko scale (what players see): rating r, rating deviation RD, volatility σ.
struct Rating {
  double rating = 1500.0;
  double deviation = 350.0;
  double volatility = 0.06;
  friend bool operator==(const Rating&, const Rating&) = default;
};

struct Glicko2Params {
  // τ, the system constant: how fast the volatility may change. Glickman: "reasonable
  // choices are between 0.3 and 1.2"; smaller suits a period of one match (book.hpp).
  double tau = 0.5;
  // The convergence tolerance of step 5 (the paper's ε).
  double epsilon = 0.000001;
  // No deviation grows past this (the deviation of a new player): an idle player becomes
  // as uncertain as a new one, never more.
  double max_deviation = 350.0;
};

// One game (an encounter) of the period against `opponent` (its rating before the period), scored 1 (a
// win), 0.5 (a draw) or 0 (a loss), counting for `weight` games (1 = a whole game).
struct Encounter {
  Rating opponent;
  double score = 0.0;
  double weight = 1.0;
};

// The update and the paper's intermediate quantities (its worked example checks them).
struct Glicko2Update {
  Rating after;
  double variance = 0.0;     // v, step 3 (0 when the period had no game)
  double improvement = 0.0;  // Δ, step 4
  int iterations = 0;        // of step 5's Illinois iteration
};

// `encounters` may be empty: the period only widens the deviation (step 6 with no game).
// `idle_periods` >= 0 periods without a game before this one: φ² grows by σ²·idle_periods
// first (then the cap `max_deviation`). Volatility is bounded: step 5 stops after 100
// iterations (the paper's example converges in 4; the test of extreme inputs in 30 or fewer).
Glicko2Update glicko2_update(const Rating& player, std::span<const Encounter> encounters,
                             const Glicko2Params& params, double idle_periods = 0.0);

// A rating's deviation after `idle_periods` periods without a game (step 6 alone, capped).
Rating widened(const Rating& player, double idle_periods, const Glicko2Params& params);

// The paper's steps on the Glicko-2 scale (μ = (r − 1500)/173.7178, φ = RD/173.7178), which
// glicko2_update composes; public so a test can follow the paper's worked example number by
// number (the paper rounds each intermediate to 3-4 digits and carries the rounded value on,
// so its final 1464.06 is 1464.05 in full double precision).
namespace steps {
double g(double phi);                               // step 3
double e(double mu, double mu_j, double phi_j);     // step 3
// Step 5, the Illinois iteration; `iterations` (optional) receives its count.
double new_volatility(double sigma, double phi, double v, double delta, double tau,
                      double epsilon, int* iterations = nullptr);
double new_phi(double phi, double new_sigma, double v);  // steps 6 and 7
double new_mu(double mu, double new_phi, double weighted_sum);  // step 7: Σ w·g·(s − E)
}  // namespace steps

// The expected score of `a` against `b` (the paper's E, from a's side), 0..1.
double expected_score(const Rating& a, const Rating& b);

}  // namespace eryantis::ratings
