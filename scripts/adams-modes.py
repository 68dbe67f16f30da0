#!/usr/bin/env python3
"""Adams–Bashforth–Moulton in three forms: PECE in second-order form (Kinema's `adams`: two
evaluations a step, the position from the acceleration integrated twice, x + h v + h² Σ β a),
PECE in first-order form (the earlier `adams`: the position from the velocity's history) and PEC
(one evaluation: the predicted point's derivative kept in the history), on the work-precision spring
(k = 1000, ζ = 0.1, from 0 at rest towards 1, 2 s): the max position error at the 60 Hz samples
against the closed form, for orders 5–12 and 2–8 steps a sample interval. "unstable" where the
run grows past 10. The history starts from the closed form (Kinema's starts from DOP853 steps,
which agree to far below these errors). Pure Python; about a second.

    python3 scripts/adams-modes.py
"""
import math
from fractions import Fraction


def weights(nodes, twice=False):
    """∫₀¹ of the Lagrange basis polynomials on `nodes` (in steps from t_n), exactly; with
    `twice`, ∫₀¹ (1 − s)·L_j(s) ds (the polynomial integrated twice, for the position)."""
    result = []
    for j, node in enumerate(nodes):
        poly, denominator = [Fraction(1)], Fraction(1)  # coefficients, lowest power first
        for m, other in enumerate(nodes):
            if m != j:
                poly = [(poly[i - 1] if i > 0 else 0) - other * (poly[i] if i < len(poly) else 0)
                        for i in range(len(poly) + 1)]
                denominator *= node - other
        integral = sum(c / (i + 1) - (c / (i + 2) if twice else 0) for i, c in enumerate(poly))
        result.append(float(integral / denominator))
    return result


def bashforth(order, twice=False):
    return weights([Fraction(-j) for j in range(order)], twice)  # f_n, f_n−1, …


def moulton(order, twice=False):
    return weights([Fraction(1 - j) for j in range(order)], twice)  # f_n+1, f_n, …


K, ZETA = 1000.0, 0.1
OMEGA = math.sqrt(K)
DAMPING = 2 * ZETA * OMEGA
OMEGA_D = OMEGA * math.sqrt(1 - ZETA * ZETA)


def derivative(x, v):
    return (v, -K * (x - 1) - DAMPING * v)


def exact(t):
    decay = math.exp(-ZETA * OMEGA * t)
    x = 1 - decay * (math.cos(OMEGA_D * t) + ZETA * OMEGA / OMEGA_D * math.sin(OMEGA_D * t))
    v = decay * OMEGA * OMEGA / OMEGA_D * math.sin(OMEGA_D * t)
    return x, v


def run(order, per_sample, mode, duration=2.0):
    h = 1 / (60 * per_sample)
    b, c = bashforth(order), moulton(order)
    bx, cx = bashforth(order, True), moulton(order, True)
    n = order - 1
    x, v = exact(n * h)
    history = [derivative(*exact((n - j) * h)) for j in range(order)]  # newest first
    worst = 0.0
    for n in range(order, round(duration / h) + 1):
        if mode == "second-order PECE":
            px = x + h * v + h * h * sum(bx[j] * history[j][1] for j in range(order))
        else:
            px = x + h * sum(b[j] * history[j][0] for j in range(order))
        pv = v + h * sum(b[j] * history[j][1] for j in range(order))
        fp = derivative(px, pv)
        if mode == "second-order PECE":
            x = x + h * v + h * h * (cx[0] * fp[1] + sum(cx[j] * history[j - 1][1] for j in range(1, order)))
        else:
            x = x + h * (c[0] * fp[0] + sum(c[j] * history[j - 1][0] for j in range(1, order)))
        v = v + h * (c[0] * fp[1] + sum(c[j] * history[j - 1][1] for j in range(1, order)))
        newest = fp if mode == "PEC" else derivative(x, v)
        history = [newest] + history[:-1]
        if n % per_sample == 0:
            worst = max(worst, abs(x - exact(n * h)[0]))
        if not math.isfinite(x) or abs(x) > 10:
            return None
    return worst


if __name__ == "__main__":
    steps = [2, 3, 4, 5, 6, 8]
    for mode in ["second-order PECE", "PECE", "PEC"]:
        print(f"{mode}: max error at the samples; columns: steps a sample interval (1/60 s)")
        print("order " + " ".join(f"{'1/' + str(60 * m):>9}" for m in steps))
        for order in range(5, 13):
            cells = []
            for m in steps:
                error = run(order, m, mode)
                cells.append(f"{'unstable' if error is None else f'{error:.1e}':>9}")
            print(f"{order:>5} " + " ".join(cells))
        print()
