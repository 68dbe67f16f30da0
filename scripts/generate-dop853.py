#!/usr/bin/env python3
"""Writes Sources/Kinema/Integrators/DOP853+Step.swift: DOP853's step with the tableau unrolled.

The coefficients are Dormand & Prince's DOP853 (Hairer, Norsett & Wanner, Solving ODEs I; Hairer's
dop853.f), as IEEE doubles, the same values as scipy's dop853_coefficients.py. Unrolled, every
coefficient is a literal and every stage a local: no workspace to allocate, no zero tests, no array
bounds checks (measured: about 5 % faster per step than the loops over arrays it replaced; the step's
own arithmetic dominates).
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


def combination(base, weights, stages, scale="h"):
    """`base + (scale·w0)·k0 + …` over the non-zero weights, in stage order (the loop's rounding)."""
    terms = [f"({scale} * {w!r}) * k{j}" if scale else f"{w!r} * k{j}" for j, w in zip(stages, weights) if w != 0]
    return " + ".join(([base] if base else []) + terms)


def stage(i):
    return f"let k{i} = system.derivative(of: {combination('y', A[i], range(i))}, at: t + {C[i]!r} * h)"


body = []
for i in range(1, 12):
    body.append(f"        {stage(i)}")
body.append(f"        let y1 = {combination('y', B, range(12))}")
body_dense = [f"        {stage(i)}" for i in range(13, 16)]
dense_rows = [f"            {combination('', D[r], range(16))}," for r in range(4)]
stage_names = ", ".join(f"k{i}" for i in range(5, 13))

swift = f'''// Generated by scripts/generate-dop853.py from Dormand & Prince's DOP853 coefficients. Do not edit.

extension DOP853 {{
    /// Takes one accepted step toward `limit` (ending exactly on it when it is within reach),
    /// retrying with smaller steps while the error estimate exceeds the tolerance.
    /// - Throws: `SimulationError.stepSizeUnderflow` when the step falls below 1e-14·|t|.
    @inlinable
    public mutating func advance(toward limit: Double) throws {{
        let t = _time, y = _state
        let k0 = derivative
        for _ in 0..<10_000 {{
            let remaining = limit - t
            let h = try control.trialStep(at: t, remaining: remaining)
            let tNew = h == remaining ? limit : t + h
            let trial = Self.trial(system, time: t, state: y, derivative: k0, step: h, end: tNew)
            _evaluations += 12
            var sum5 = 0.0, sum3 = 0.0
            for i in 0..<State.laneCount(of: y) {{
                let inverseScale = 1 / (absoluteTolerance + relativeTolerance * max(abs(y[lane: i]), abs(trial.y1[lane: i])))
                // One division, not two.
                let q5 = trial.error5[lane: i] * inverseScale, q3 = trial.error3[lane: i] * inverseScale
                sum5 += q5 * q5
                sum3 += q3 * q3
            }}
            let denominator = sum5 + 0.01 * sum3
            let error = denominator > 0 ? abs(h) * sum5 / (denominator * Double(State.laneCount(of: y))).squareRoot() : 0
            if control.accepts(error, step: h, remaining: remaining, maximumStep: maximumStep) {{
                _previousTime = t
                previousState = y
                _time = tNew
                _state = trial.y1
                lastTrial = trial
                lastStep = (derivative: k0, size: h)
                denseIsCurrent = false
                derivative = trial.k12
                _steps += 1
                return
            }}
        }}
        throw SimulationError.stepSizeUnderflow(time: t, step: control.stepSize)
    }}

    /// The stages a step uses again: for the next step (k12, FSAL) and the dense output (k5…k12).
    @usableFromInline
    struct Trial {{
        @usableFromInline var y1: State
        @usableFromInline var error5: State
        @usableFromInline var error3: State
        @usableFromInline var {stage_names}: State

        @inlinable
        init(y1: State, error5: State, error3: State, {", ".join(f"_ k{i}: State" for i in range(5, 13))}) {{
            self.y1 = y1
            self.error5 = error5
            self.error3 = error3
{chr(10).join(f"            self.k{i} = k{i}" for i in range(5, 13))}
        }}

        /// How many vectors `write(to:)` writes: y1, the two error estimates, k5…k12.
        @usableFromInline static var slotCount: Int {{ 11 }}

        /// The trial from `slotCount` consecutive vectors, in `write(to:)`'s order.
        @inlinable
        init(slots p: UnsafePointer<State>) {{
            self.init(y1: p[0], error5: p[1], error3: p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10])
        }}

        @inlinable
        func write(to p: UnsafeMutablePointer<State>) {{
            (p[0], p[1], p[2], p[3], p[4], p[5]) = (y1, error5, error3, k5, k6, k7)
            (p[6], p[7], p[8], p[9], p[10]) = (k8, k9, k10, k11, k12)
        }}
    }}

    /// One trial step of size h. Static, with the system as an argument: called on `self.system`
    /// from a mutating method, every stage copied the whole system struct.
    /// - Parameter estimatesError: false for a step whose size is fixed anyway (Adams's start):
    ///   the two error estimates are left zero, 16 of the step's 90 vector operations.
    @inlinable
    static func trial(_ system: System, time t: Double, state y: State, derivative k0: State, step h: Double,
                      end tNew: Double, estimatesError: Bool = true) -> Trial {{
{chr(10).join(body)}
        let k12 = system.derivative(of: y1, at: tNew)
        guard estimatesError else {{ return Trial(y1: y1, error5: .zero, error3: .zero, {stage_names}) }}
        let error5 = {combination('', E5, range(13), scale='')}
        let error3 = {combination('', E3, range(13), scale='')}
        return Trial(y1: y1, error5: error5, error3: error3, {stage_names})
    }}

    /// The three extra stages and the coefficients of the 7th-order interpolant of the step just
    /// taken from (t, y) (stages 1–4 have zero weight in both).
    @inlinable
    static func denseOutput(_ system: System, time t: Double, state y: State, derivative k0: State, step h: Double,
                            _ trial: Trial) -> DenseOutput {{
        let ({stage_names}) = (trial.{", trial.".join(f"k{i}" for i in range(5, 13))})
{chr(10).join(body_dense)}
        let deltaY = trial.y1 - y
        return DenseOutput(
            deltaY,
            h * k0 - deltaY,
            2 * deltaY - h * (k12 + k0),
{chr(10).join(dense_rows)[:-1]})
    }}
}}
'''
out = pathlib.Path(__file__).resolve().parent.parent / "Sources/Kinema/Integrators/DOP853+Step.swift"
out.write_text(swift)
print(f"wrote {out}")

# The same step for scenes in flat storage (FlatDOP853): every vector a 2n-lane slot of one
# workspace, every combination a loop over lanes with the terms in the same order, so both agree
# to the last bit.
SLOT_Y, SLOT_K0, SLOT_STAGE, SLOT_Y1, SLOT_F0 = 0, 1, 17, 18, 19


def lane_combination(base, weights, stages, prefix):
    """Scalars `prefix_j = h·w_j` and the lane expression `base[l] + prefix_j * kj[l] + …`."""
    names, lets = [], []
    for j, w in zip(stages, weights):
        if w != 0:
            names.append((f"{prefix}{j}", j))
            lets.append(f"h * {w!r}")
    scalars = f"let ({', '.join(n for n, _ in names)}) = ({', '.join(lets)})" if len(names) > 1 else f"let {names[0][0]} = {lets[0]}"
    terms = [f"{n} * k{j}[l]" for n, j in names]
    return scalars, " + ".join(([f"{base}[l]"] if base else []) + terms)


def flat_stage(i, target, indent="        "):
    scalars, expression = lane_combination("y", A[i], range(i), f"a{i}_")
    return [f"{indent}{scalars}",
            f"{indent}for l in 0..<m {{ stage[l] = {expression} }}",
            f"{indent}layout.derivative(of: stage, into: k{target}, resting: resting)"]


flat_body = []
for i in range(1, 12):
    flat_body += flat_stage(i, i)
b_scalars, b_expression = lane_combination("y", B, range(12), "b")
flat_body += [f"        {b_scalars}", f"        for l in 0..<m {{ y1[l] = {b_expression} }}",
              f"        layout.derivative(of: y1, into: k12, resting: resting)"]
e5 = " + ".join(f"{w!r} * k{j}[l]" for j, w in enumerate(E5) if w != 0)
e3 = " + ".join(f"{w!r} * k{j}[l]" for j, w in enumerate(E3) if w != 0)
flat_dense = []
for i in range(13, 16):
    flat_dense += flat_stage(i, i)
dense_lets, dense_rows_flat = [], []
for r in range(4):
    scalars, expression = lane_combination("", D[r], range(16), f"d{r}_")
    dense_lets.append(f"        {scalars}")
    dense_rows_flat.append(f"            f{3 + r}[l] = {expression}")
def slot_lets(lines):
    """The workspace slots k1…k15 (k0 and k12 are the step's ends) that `lines` use."""
    used = [j for j in range(1, 16) if j != 12 and any(f"k{j}[" in line or f"into: k{j})" in line for line in lines)]
    return "\n".join(f"        let k{j} = w + {SLOT_K0 + j} * m" for j in used)

flat_swift = f'''// Generated by scripts/generate-dop853.py from Dormand & Prince's DOP853 coefficients. Do not edit.

extension FlatDOP853 {{
    /// One trial step of size h from `y` (its derivative `k0`): stages k1…k11 in the workspace,
    /// the state reached in `y1`, its derivative in `k12`. Returns the error in dop853's norm (the
    /// 5th-order estimate blended with the 3rd-order one).
    static func trial(_ layout: System.Layout, _ resting: [System.RestingContact], _ w: UnsafeMutablePointer<Double>, _ n: Int,
                      _ ends: Ends, step h: Double, absolute: Double, relative: Double) -> Double {{
        let m = 2 * n
        let (y, k0, y1, k12) = (w + ends.y * m, w + ends.k0 * m, w + ends.y1 * m, w + ends.k12 * m)
        let stage = w + {SLOT_STAGE} * m
{slot_lets(flat_body + [e5, e3])}
{chr(10).join(flat_body)}
        var sum5 = 0.0, sum3 = 0.0
        for l in 0..<m {{
            let inverseScale = 1 / (absolute + relative * max(abs(y[l]), abs(y1[l])))
            let q5 = ({e5}) * inverseScale
            let q3 = ({e3}) * inverseScale
            sum5 += q5 * q5
            sum3 += q3 * q3
        }}
        let denominator = sum5 + 0.01 * sum3
        return denominator > 0 ? abs(h) * sum5 / (denominator * Double(m)).squareRoot() : 0
    }}

    /// The three extra stages and the coefficients F0…F6 of the 7th-order interpolant of the step
    /// of size h just taken from `y` to `y1`.
    static func denseOutput(_ layout: System.Layout, _ resting: [System.RestingContact], _ w: UnsafeMutablePointer<Double>,
                            _ n: Int, _ ends: Ends, step h: Double) {{
        let m = 2 * n
        let (y, k0, y1, k12) = (w + ends.y * m, w + ends.k0 * m, w + ends.y1 * m, w + ends.k12 * m)
        let stage = w + {SLOT_STAGE} * m
{slot_lets(flat_dense + dense_rows_flat)}
        let (f0, f1, f2, f3, f4, f5, f6) = ({", ".join(f"w + {SLOT_F0 + r} * m" for r in range(7))})
{chr(10).join(flat_dense)}
{chr(10).join(dense_lets)}
        for l in 0..<m {{
            let deltaY = y1[l] - y[l]
            f0[l] = deltaY
            f1[l] = h * k0[l] - deltaY
            f2[l] = 2 * deltaY - h * (k12[l] + k0[l])
{chr(10).join(dense_rows_flat)}
        }}
    }}
}}
'''
flat_out = pathlib.Path(__file__).resolve().parent.parent / "Sources/Kinema/Integrators/FlatDOP853+Step.swift"
flat_out.write_text(flat_swift)
# Laid out as the rest of the sources are (.swift-format at the root).
subprocess.run(["swift", "format", "format", "-i", str(out), str(flat_out)], check=True)
print(f"wrote {flat_out}")
