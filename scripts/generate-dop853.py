#!/usr/bin/env python3
"""Writes Sources/Kinema/Integrators/DOP853Stages.swift: DOP853's step with the tableau unrolled,
written once over StageRegisters (whole states as values, or lanes of one workspace).

The coefficients are Dormand & Prince's DOP853 (Hairer, Norsett & Wanner, Solving ODEs I; Hairer's
dop853.f), as IEEE doubles, the same values as scipy's dop853_coefficients.py. Unrolled, every
coefficient is a literal: no zero tests, no loops over coefficient arrays (measured: about 5 % faster
per step than the loops over arrays it replaced; the step's own arithmetic dominates).
Run: python3 scripts/generate-dop853.py"""
import pathlib
import subprocess

C = [0.0, 0.05260015195876773, 0.0789002279381516, 0.1183503419072274, 0.2816496580927726, 0.3333333333333333, 0.25, 0.3076923076923077, 0.6512820512820513, 0.6, 0.8571428571428571, 1.0, 1.0, 0.1, 0.2, 0.7777777777777778]
B = [0.054293734116568765, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003, -5.801203960010585, 0.3111643669578199, -0.1521609496625161, 0.20136540080403034, 0.04471061572777259]
E5 = [0.01312004499419488, 0.0, 0.0, 0.0, 0.0, -1.2251564463762044, -0.4957589496572502, 1.6643771824549864, -0.35032884874997366, 0.3341791187130175, 0.08192320648511571, -0.022355307863886294, 0.0]
E3 = [-0.18980075407240762, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003, -5.801203960010585, -0.4226823213237919, -0.1521609496625161, 0.20136540080403034, 0.02265179219836082, 0.0]
# Row i holds a[i][0..<i]; row 12 is b (stage 12 is f at the step's end, reused as the next k0).
A = [
    [],
    [0.05260015195876773],
    [0.0197250569845379, 0.0591751709536137],
    [0.02958758547680685, 0.0, 0.08876275643042054],
    [0.2413651341592667, 0.0, -0.8845494793282861, 0.924834003261792],
    [0.037037037037037035, 0.0, 0.0, 0.17082860872947386, 0.12546768756682242],
    [0.037109375, 0.0, 0.0, 0.17025221101954405, 0.06021653898045596, -0.017578125],
    [0.03709200011850479, 0.0, 0.0, 0.17038392571223998, 0.10726203044637328, -0.015319437748624402, 0.008273789163814023],
    [0.6241109587160757, 0.0, 0.0, -3.3608926294469414, -0.868219346841726, 27.59209969944671, 20.154067550477894, -43.48988418106996],
    [0.47766253643826434, 0.0, 0.0, -2.4881146199716677, -0.590290826836843, 21.230051448181193, 15.279233632882423, -33.28821096898486, -0.020331201708508627],
    [-0.9371424300859873, 0.0, 0.0, 5.186372428844064, 1.0914373489967295, -8.149787010746927, -18.52006565999696, 22.739487099350505, 2.4936055526796523, -3.0467644718982196],
    [2.273310147516538, 0.0, 0.0, -10.53449546673725, -2.0008720582248625, -17.9589318631188, 27.94888452941996, -2.8589982771350235, -8.87285693353063, 12.360567175794303, 0.6433927460157636],
    [0.054293734116568765, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003, -5.801203960010585, 0.3111643669578199, -0.1521609496625161, 0.20136540080403034, 0.04471061572777259],
    [0.056167502283047954, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25350021021662483, -0.2462390374708025, -0.12419142326381637, 0.15329179827876568, 0.00820105229563469, 0.007567897660545699, -0.008298],
    [0.03183464816350214, 0.0, 0.0, 0.0, 0.0, 0.028300909672366776, 0.053541988307438566, -0.05492374857139099, 0.0, 0.0, -0.00010834732869724932, 0.0003825710908356584, -0.00034046500868740456, 0.1413124436746325],
    [-0.42889630158379194, 0.0, 0.0, 0.0, 0.0, -4.697621415361164, 7.683421196062599, 4.06898981839711, 0.3567271874552811, 0.0, 0.0, 0.0, -0.0013990241651590145, 2.9475147891527724, -9.15095847217987],
]
# Dense output: row r weights stages 0..15 for the coefficient F(3 + r).
D = [
    [-8.428938276109013, 0.0, 0.0, 0.0, 0.0, 0.5667149535193777, -3.0689499459498917, 2.38466765651207, 2.117034582445028, -0.871391583777973, 2.2404374302607883, 0.6315787787694688, -0.08899033645133331, 18.148505520854727, -9.194632392478356, -4.436036387594894],
    [10.427508642579134, 0.0, 0.0, 0.0, 0.0, 242.28349177525817, 165.20045171727028, -374.5467547226902, -22.113666853125306, 7.733432668472264, -30.674084731089398, -9.332130526430229, 15.697238121770845, -31.139403219565178, -9.35292435884448, 35.81684148639408],
    [19.985053242002433, 0.0, 0.0, 0.0, 0.0, -387.0373087493518, -189.17813819516758, 527.8081592054236, -11.57390253995963, 6.8812326946963, -1.0006050966910838, 0.7777137798053443, -2.778205752353508, -60.19669523126412, 84.32040550667716, 11.99229113618279],
    [-25.69393346270375, 0.0, 0.0, 0.0, 0.0, -154.18974869023643, -231.5293791760455, 357.6391179106141, 93.40532418362432, -37.45832313645163, 104.0996495089623, 29.8402934266605, -43.53345659001114, 96.32455395918828, -39.17726167561544, -149.72683625798564],
]


def k(j):
    """Stage j's derivative (j = 0 at the step's start) is register k(j + 1)."""
    return "r[.end, l]" if j == 12 else f"r[.k{j + 1}, l]"


def lane_combination(base, weights, stages, prefix, scale="h * "):
    """Scalars `prefix_j = h·w_j` and `((base + prefix_j * kj) + …)` over the non-zero weights, in
    stage order (the rounding of a loop over them), parenthesized so that it type-checks quickly."""
    names, lets = [], []
    for j, w in zip(stages, weights):
        if w != 0:
            names.append((f"{prefix}{j}", j))
            lets.append(f"{scale}{w!r}")
    if len(names) > 1:
        scalars = f"let ({', '.join(n for n, _ in names)}) = ({', '.join(lets)})"
    else:
        scalars = f"let {names[0][0]} = {lets[0]}"
    parts = ([base] if base else []) + [f"{n} * {k(j)}" for n, j in names]
    expression = f"{parts[0]} + {parts[1]}" if len(parts) > 1 else parts[0]
    for part in parts[2:]:
        expression = f"({expression}) + {part}"
    return scalars, expression


def stage(i):
    scalars, expression = lane_combination("r[.y, l]", A[i], range(i), f"a{i}_")
    return [f"        {scalars}",
            f"        r.forEachLane {{ r, l in r[.stage, l] = {expression} }}",
            f"        r.derivative(of: .stage, into: .k{i + 1}, time: t + {C[i]!r} * h, system)"]


trial = []
for i in range(1, 12):
    trial += stage(i)
b_scalars, b_expression = lane_combination("r[.y, l]", B, range(12), "b")
trial += [f"        {b_scalars}", f"        r.forEachLane {{ r, l in r[.y1, l] = {b_expression} }}",
          "        r.derivative(of: .y1, into: .end, time: tNew, system)"]
e5_scalars, e5 = lane_combination("", E5, range(13), "e", scale="")
e3_scalars, e3 = lane_combination("", E3, range(13), "g", scale="")
dense = []
for i in range(13, 16):
    dense += stage(i)
dense_lets, dense_rows = [], []
for r in range(4):
    scalars, expression = lane_combination("", D[r], range(16), f"d{r}_")
    dense_lets.append(f"        {scalars}")
    dense_rows.append(f"            r[.r{4 + r}, l] = {expression}")

swift = f'''// Generated by scripts/generate-dop853.py from Dormand & Prince's DOP853 coefficients. Do not edit.

/// DOP853's step with the tableau unrolled, written once over `StageRegisters`: stage j's
/// derivative in `k(j+1)` (`k1` at the step's start `y`), the state reached in `y1` and its
/// derivative in `end` (stage 12's), the interpolant's coefficients F0…F6 in `r1`…`r7`.
@_spi(Engine) public enum DOP853Stages {{
    /// One step of size h from `y` at `t` (its derivative in `k1`): stages 1…11 into k2…k12, the
    /// state reached in y1 and its derivative (at `tNew`) in `end`. Twelve evaluations.
    @inlinable @inline(__always)
    public static func trial<R: StageRegisters>(_ r: inout R, _ system: R.System, time t: Double, step h: Double, end tNew: Double) {{
{chr(10).join(trial)}
    }}

    /// The sums of dop853's error norm over the step `trial` left in the registers: Σ (e5ᵢ/skᵢ)²
    /// and Σ (e3ᵢ/skᵢ)², the 5th- and 3rd-order estimates (without the factor h) scaled by
    /// skᵢ = atol + rtol·max(|yᵢ|, |y1ᵢ|).
    @inlinable @inline(__always)
    public static func errorSums<R: StageRegisters>(_ r: inout R, absolute: Double, relative: Double) -> (Double, Double) {{
        {e5_scalars}
        {e3_scalars}
        var sum5 = 0.0, sum3 = 0.0
        r.forEachLane {{ r, l in
            let error5 = {e5}
            let error3 = {e3}
            let sums = squaredScaledErrors(error5, error3, r[.y, l], r[.y1, l], absolute: absolute, relative: relative)
            sum5 += sums.0
            sum3 += sums.1
        }}
        return (sum5, sum3)
    }}

    /// The three extra stages (into k14…k16) and the coefficients r1…r7 of the 7th-order
    /// interpolant of the step of size h just taken from (t, y) to y1 (stages 1–4 have zero weight).
    @inlinable
    public static func denseOutput<R: StageRegisters>(_ r: inout R, _ system: R.System, time t: Double, step h: Double) {{
{chr(10).join(dense)}
{chr(10).join(dense_lets)}
        r.forEachLane {{ r, l in
            let deltaY = r[.y1, l] - r[.y, l]
            r[.r1, l] = deltaY
            r[.r2, l] = h * r[.k1, l] - deltaY
            r[.r3, l] = 2 * deltaY - h * (r[.end, l] + r[.k1, l])
{chr(10).join(dense_rows)}
        }}
    }}
}}
'''
out = pathlib.Path(__file__).resolve().parent.parent / "Sources/Kinema/Integrators/DOP853Stages.swift"
out.write_text(swift)
# Laid out as the rest of the sources are (.swift-format at the root).
subprocess.run(["swift", "format", "format", "-i", str(out)], check=True)
print(f"wrote {out}")
