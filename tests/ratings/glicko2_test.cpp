#include "eryantis/ratings/glicko2.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace eryantis::ratings {
namespace {

// Glickman, "Example of the Glicko-2 system" (2013), section "Example calculation": a player
// rated 1500 (RD 200, σ 0.06), τ = 0.5, plays three games in a period.
constexpr Rating kPlayer{1500.0, 200.0, 0.06};
constexpr std::array<Encounter, 3> kGames{{
    {Rating{1400.0, 30.0, 0.06}, 1.0, 1.0},
    {Rating{1550.0, 100.0, 0.06}, 0.0, 1.0},
    {Rating{1700.0, 300.0, 0.06}, 0.0, 1.0},
}};

double round_to(double x, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(x * scale) / scale;
}

// Every number the paper prints, computed as the paper computed it: its step-3 table from
// the exact conversions, v and Δ from that table's rounded g and E, each later step from the
// printed values before it, and step 8 from the printed μ' and φ'. (In full precision, next
// test, r' is 1464.0507: the paper's 1464.06 comes from its 4-digit μ'.)
TEST(Glicko2, ReproducesThePapersWorkedExampleToItsPublishedDigits) {
  // Step 2: μ = 0, φ = 1.1513; μj = −0.5756, 0.2878, 1.1513; φj = 0.1727, 0.5756, 1.7269.
  const double mu = (kPlayer.rating - 1500.0) / kGlickoScale;
  const double phi = kPlayer.deviation / kGlickoScale;
  EXPECT_EQ(mu, 0.0);
  EXPECT_EQ(round_to(phi, 4), 1.1513);
  const std::array<double, 3> printed_mu_j{-0.5756, 0.2878, 1.1513};
  const std::array<double, 3> printed_phi_j{0.1727, 0.5756, 1.7269};
  // Step 3's table: g(φj) = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303.
  const std::array<double, 3> g{0.9955, 0.9531, 0.7242};
  const std::array<double, 3> e{0.639, 0.432, 0.303};
  double inverse_v = 0.0;
  double sum = 0.0;
  for (std::size_t j = 0; j < 3; ++j) {
    const double mu_j = (kGames[j].opponent.rating - 1500.0) / kGlickoScale;
    const double phi_j = kGames[j].opponent.deviation / kGlickoScale;
    EXPECT_EQ(round_to(mu_j, 4), printed_mu_j[j]) << j;
    EXPECT_EQ(round_to(phi_j, 4), printed_phi_j[j]) << j;
    EXPECT_EQ(round_to(steps::g(phi_j), 4), g[j]) << j;
    EXPECT_EQ(round_to(steps::e(mu, mu_j, phi_j), 3), e[j]) << j;
    inverse_v += g[j] * g[j] * e[j] * (1.0 - e[j]);
    sum += g[j] * (kGames[j].score - e[j]);
  }
  // Step 3: v = 1.7785; step 4: Δ = −0.4834.
  const double v = round_to(1.0 / inverse_v, 4);
  EXPECT_EQ(v, 1.7785);
  const double delta = round_to(v * sum, 4);
  EXPECT_EQ(delta, -0.4834);
  // Step 5: σ' = 0.05999 (the paper prints its first five decimals).
  int iterations = 0;
  const double sigma = steps::new_volatility(0.06, 1.1513, v, delta, 0.5, 0.000001, &iterations);
  EXPECT_EQ(std::floor(sigma * 1e5) / 1e5, 0.05999) << sigma;
  EXPECT_GT(iterations, 0);
  // Step 6: φ* = 1.152862; step 7: φ' = 0.8722 and μ' = −0.2069.
  EXPECT_EQ(round_to(std::sqrt(1.1513 * 1.1513 + 0.05999 * 0.05999), 6), 1.152862);
  EXPECT_EQ(round_to(steps::new_phi(1.1513, 0.05999, 1.7785), 4), 0.8722);
  const Glicko2Update u = glicko2_update(kPlayer, kGames, Glicko2Params{});
  EXPECT_EQ(round_to((u.after.rating - 1500.0) / kGlickoScale, 4), -0.2069);
  // Step 8 from the printed μ' and φ': r' = 1464.06, RD' = 151.52.
  EXPECT_EQ(round_to(kGlickoScale * -0.2069 + 1500.0, 2), 1464.06);
  EXPECT_EQ(round_to(kGlickoScale * 0.8722, 2), 151.52);
}

// The same example in full double precision (what the book computes): within the paper's
// rounding of its published numbers, and pinned to the digits this implementation gives.
TEST(Glicko2, ThePapersExampleInFullPrecisionIsWithinItsRounding) {
  const Glicko2Update u = glicko2_update(kPlayer, kGames, Glicko2Params{});
  EXPECT_NEAR(u.variance, 1.7785, 0.0006);
  EXPECT_NEAR(u.improvement, -0.4834, 0.0006);
  EXPECT_NEAR(u.after.volatility, 0.05999, 0.00001);
  EXPECT_NEAR(u.after.rating, 1464.06, 0.01);
  EXPECT_NEAR(u.after.deviation, 151.52, 0.005);
  // Pinned: a change of formula shows here first.
  EXPECT_NEAR(u.variance, 1.778977, 0.000001);
  EXPECT_NEAR(u.improvement, -0.483933, 0.000001);
  EXPECT_NEAR(u.after.volatility, 0.0599960, 0.0000001);
  EXPECT_NEAR(u.after.rating, 1464.0507, 0.0001);
  EXPECT_LT(u.iterations, 20);
}

TEST(Glicko2, ExpectedScoresAreThePapersE) {
  // Step 3's table: E = 0.639, 0.432, 0.303.
  EXPECT_NEAR(expected_score(kPlayer, kGames[0].opponent), 0.639, 0.0005);
  EXPECT_NEAR(expected_score(kPlayer, kGames[1].opponent), 0.432, 0.0005);
  EXPECT_NEAR(expected_score(kPlayer, kGames[2].opponent), 0.303, 0.0005);
}

TEST(Glicko2, APeriodWithoutGamesOnlyWidensTheDeviation) {
  const Glicko2Update u = glicko2_update(kPlayer, {}, Glicko2Params{});
  EXPECT_EQ(u.after.rating, 1500.0);
  EXPECT_EQ(u.after.volatility, 0.06);
  // φ' = sqrt(φ² + σ²) (step 6): 200 → 200.0540...
  const double phi = 200.0 / kGlickoScale;
  EXPECT_DOUBLE_EQ(u.after.deviation, std::sqrt(phi * phi + 0.06 * 0.06) * kGlickoScale);
}

TEST(Glicko2, IdlePeriodsWidenByTheirNumberAndStopAtTheCap) {
  const Glicko2Params params{};
  const double phi = 50.0 / kGlickoScale;
  const Rating r{1700.0, 50.0, 0.06};
  EXPECT_DOUBLE_EQ(widened(r, 10.0, params).deviation,
                   std::sqrt(phi * phi + 10.0 * 0.06 * 0.06) * kGlickoScale);
  EXPECT_EQ(widened(r, 0.0, params), r);
  EXPECT_EQ(widened(r, -3.0, params), r);
  EXPECT_DOUBLE_EQ(widened(r, 1e9, params).deviation, 350.0);
  EXPECT_EQ(widened(r, 1e9, params).rating, 1700.0);
}

TEST(Glicko2, AWeightOfOneHalfTwiceIsOneGame) {
  const Rating opp{1600.0, 80.0, 0.06};
  const std::array<Encounter, 1> one{{{opp, 1.0, 1.0}}};
  const std::array<Encounter, 2> halves{{{opp, 1.0, 0.5}, {opp, 1.0, 0.5}}};
  const Glicko2Update a = glicko2_update(kPlayer, one, Glicko2Params{});
  const Glicko2Update b = glicko2_update(kPlayer, halves, Glicko2Params{});
  EXPECT_NEAR(a.after.rating, b.after.rating, 1e-9);
  EXPECT_NEAR(a.after.deviation, b.after.deviation, 1e-9);
  EXPECT_NEAR(a.after.volatility, b.after.volatility, 1e-12);
  // A zero weight counts for nothing.
  const std::array<Encounter, 2> with_zero{{{opp, 1.0, 1.0}, {Rating{3000.0, 30.0, 0.06}, 0.0, 0.0}}};
  EXPECT_EQ(glicko2_update(kPlayer, with_zero, Glicko2Params{}).after, a.after);
}

TEST(Glicko2, ExtremeInputsStayFiniteAndBounded) {
  const Glicko2Params params{};
  for (const double gap : {-3000.0, -800.0, 0.0, 800.0, 3000.0}) {
    for (const double score : {0.0, 0.5, 1.0}) {
      for (const double rd : {0.0, 30.0, 350.0}) {
        const std::array<Encounter, 1> g{{{Rating{1500.0 + gap, rd, 0.06}, score, 1.0}}};
        const Glicko2Update u = glicko2_update(Rating{1500.0, 350.0, 0.06}, g, params);
        EXPECT_TRUE(std::isfinite(u.after.rating)) << gap << " " << score << " " << rd;
        EXPECT_TRUE(std::isfinite(u.after.deviation));
        EXPECT_GT(u.after.deviation, 0.0);
        EXPECT_LE(u.after.deviation, 350.0);
        EXPECT_GT(u.after.volatility, 0.0);
        EXPECT_LE(u.iterations, 30);
        if (score == 1.0) {
          EXPECT_GE(u.after.rating, 1500.0);
        }
        if (score == 0.0) {
          EXPECT_LE(u.after.rating, 1500.0);
        }
      }
    }
  }
}

}  // namespace
}  // namespace eryantis::ratings
