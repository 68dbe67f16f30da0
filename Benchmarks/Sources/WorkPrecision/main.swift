import CBaseline
import Foundation
@_spi(Engine) import Kinema
import OdeintBaseline

// Work at matched accuracy on the problem of `kinema work-precision --spring --stiffness 1000
// --damping-ratio 0.1 --duration 2`: the max error at the 60 Hz samples against the closed form,
// and the time of a whole run (samples included), for Kinema's integrators, Boost.Odeint's
// (std::array state, -O2) and GSL's rk8pd with a C right-hand side, all in this process. For each
// of 1e-6, 1e-9 and 1e-12 it prints each side's cheapest run that reaches it.
// Run: swift run -c release WorkPrecision

let spring = try DampedSpring(stiffness: 1000, dampingRatio: 0.1)
let scene = try PhysicsScene.spring(spring)
let exact = try spring.motion()
let duration = 2.0, rate = 60.0, count = 121
let times = (0..<count).map { $0 == count - 1 ? duration : Double($0) / rate }
let levels = [1e-6, 1e-9, 1e-12]

func maxError(_ positions: [Double]) -> Double {
    zip(positions, times).map { abs($0 - exact.position(at: $1)) }.max() ?? .infinity
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
}

struct Candidate {
    let side: String, method: String, setting: String
    /// One run's seconds (best of `repeats`) and its positions at the samples; nil where it fails.
    let run: (_ repeats: Int) -> (seconds: Double, positions: [Double])?
}

var candidates: [Candidate] = []
func kinema(_ method: String, _ setting: String, _ integration: IntegrationMethod) {
    candidates.append(
        Candidate(side: "Kinema", method: method, setting: setting) { repeats in
            let simulation = Simulation(scene: scene)
            var best = Double.infinity, last: Trajectory?
            for _ in 0..<repeats {
                guard
                    let time = try? seconds({
                        last = try simulation.run(method: integration, duration: duration, sampleRate: rate)
                    })
                else { return nil }
                best = min(best, time)
            }
            return last.map { trajectory in (best, (0..<trajectory.count).map { trajectory.position(atSample: $0) }) }
        })
}
func odeint(_ code: Int32, _ method: String, _ setting: Double) {
    candidates.append(
        Candidate(side: "odeint", method: method, setting: "\(setting)") { repeats in
            var positions = [Double](repeating: .nan, count: count), steps = 0
            let time = odeint_spring_samples(
                code, setting, spring.stiffness, spring.damping, duration, rate, count, Int32(repeats),
                &positions, &steps)
            return time < 0 ? nil : (time, positions)
        })
}
func gsl(_ tolerance: Double) {
    candidates.append(
        Candidate(side: "GSL", method: "rk8pd (C)", setting: "\(tolerance)") { repeats in
            var positions = [Double](repeating: .nan, count: count), best = Double.infinity
            for _ in 0..<repeats {
                var status: Int32 = 0
                let time = seconds {
                    status = cbaseline_gsl_rk8pd_samples(
                        spring.stiffness, spring.damping, tolerance, duration, rate, &positions, count)
                }
                guard status == 0 else { return nil }
                best = min(best, time)
            }
            return (best, positions)
        })
}

// Each side's settings on grids of like density: fixed steps per sample interval for the
// fixed-step methods (Kinema's Adams also between the samples: its dense output serves them, where
// odeint's fixed steppers would shorten a step to land on each sample), and tolerances at 1, 2
// and 5 per decade for the adaptive ones (an error that scales with the tolerance moves by 2-2.5x
// between neighbours; with the step an Adams method's of order 8-12 moves by 3-14x).
let perSample = [1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32]
let adamsPerSample: [Double] = [1.5, 2, 2.5, 3, 4, 5, 6, 8, 12, 16, 24, 32]
let tolerances = (-14 ... -4).reversed().flatMap { e in [5, 2, 1].map { Double("\($0)e\(e)")! } }
for order in [5, 6, 7, 8, 9, 10, 11, 12] {
    for n in adamsPerSample {
        let perSecond = rate * n
        kinema("adams", "order \(order), 1/\(Int(perSecond)) s", .adams(timeStep: 1 / perSecond, order: order))
    }
}
for n in perSample { kinema("rk4", "1/\(Int(rate) * n) s", .rk4(timeStep: 1 / (rate * Double(n)))) }
for tolerance in tolerances {
    kinema("dopri5", "\(tolerance)", .dopri5(tolerance: tolerance))
    kinema("dop853", "\(tolerance)", .dop853(tolerance: tolerance))
    odeint(1, "dopri5 dense output", tolerance)
    odeint(2, "fehlberg78 controlled", tolerance)
    odeint(3, "cash_karp54 controlled", tolerance)
    odeint(4, "bulirsch_stoer", tolerance)
    odeint(5, "bulirsch_stoer_dense_out", tolerance)
    gsl(tolerance)
}
for n in perSample {
    odeint(0, "runge_kutta4, steps per sample", Double(n))
    odeint(6, "adams_bashforth_moulton<8>, steps per sample", Double(n))
}

// Three rounds over every candidate, each run repeated for about 20 ms; the best time counts.
var best = [Double](repeating: .infinity, count: candidates.count),
    errors = [Double](repeating: .infinity, count: candidates.count)
for _ in 0..<3 {
    for (i, candidate) in candidates.enumerated() {
        guard let probe = candidate.run(1) else { continue }
        let repeats = max(1, min(2_000, Int(0.02 / max(probe.seconds, 1e-7))))
        guard let measured = candidate.run(repeats) else { continue }
        best[i] = min(best[i], measured.seconds)
        errors[i] = maxError(measured.positions)
    }
}

print("| max error ≤ | Kinema's cheapest | µs | odeint's cheapest | µs | ÷ Kinema | GSL's cheapest | µs | ÷ Kinema |")
print("|---|---|---|---|---|---|---|---|---|")
for level in levels {
    func cheapest(_ side: String) -> Int? {
        candidates.indices.filter { candidates[$0].side == side && errors[$0] <= level }.min { best[$0] < best[$1] }
    }
    guard let k = cheapest("Kinema"), let o = cheapest("odeint"), let g = cheapest("GSL") else {
        print("| \(level) | a side reaches no run at this level | | | | | | | |")
        continue
    }
    func name(_ i: Int) -> String {
        "\(candidates[i].method) \(candidates[i].setting) (\(String(format: "%.1e", errors[i])))"
    }
    func us(_ i: Int) -> String { String(format: "%.1f", best[i] * 1e6) }
    print(
        "| \(level) | \(name(k)) | \(us(k)) | \(name(o)) | \(us(o)) | \(String(format: "%.2f×", best[o] / best[k])) "
            + "| \(name(g)) | \(us(g)) | \(String(format: "%.2f×", best[g] / best[k])) |")
}
if CommandLine.arguments.contains("--all") {
    print("\nside,method,setting,max_error,microseconds")
    for (i, candidate) in candidates.enumerated() {
        print("\(candidate.side),\(candidate.method),\(candidate.setting),\(errors[i]),\(best[i] * 1e6)")
    }
}
