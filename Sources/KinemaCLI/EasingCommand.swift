import ArgumentParser
import Foundation
import Kinema

/// `kinema easing NAME`: samples a closed-form easing as `t,value,velocity`.
struct EasingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "easing",
        abstract: "Sample a closed-form easing curve as CSV: t,value,velocity.",
        discussion: """
            NAME is one of: \(Easing.fixedNames.joined(separator: ", ")) (CSS's ease is default), \
            cubic-bezier(x1,y1,x2,y2) (x in [0,1]; outside t in [0,1] it continues along its end tangents, as CSS \
            specifies), damped-cosine(a,b), or with parameters:
              back-{in,out,in-out}(s)        overshoot s (d3's, React Native's Easing.back(s); canonical back-in-out: s = 2.5949095)
              elastic-{in,out,in-out}(a,p)   Penner's elastic, amplitude a ≥ 1, period p > 0 (canonical: 1,0.3; in-out 1,0.45)
              poly-{in,out,in-out}(n)        uⁿ, n > 0 (d3's easePoly exponent)
            velocity is d value / d t; where the tangent is vertical (circ-in at t = 1, cubic-bezier(0,1,1,0) at \
            t = 0) it is printed as inf or -inf, which numpy and pandas read as infinities.

            Examples:
              kinema easing ease-in-out --samples 11
              kinema easing 'cubic-bezier(0.3,-0.4,0.6,1.5)' --at 0,0.25,0.5
              kinema easing 'damped-cosine(5,30)' -o jelly.csv
              kinema easing 'back-out(3)' --samples 21
            """
    )

    @Argument(help: "The easing's name.")
    var name: String

    @Option(parsing: .unconditional, help: "Number of evenly spaced samples, t = i/(N−1), at least 2 (default 101).")
    var samples: Int?

    @Option(parsing: .unconditional, help: "Comma-separated times to sample at instead of --samples.")
    var at: String?

    @OptionGroup var output: OutputOptions

    func run() throws {
        let easing = try Easing(name: name)
        let times = try sampleTimes()
        // Rows go out in blocks of about 64 kB as they are computed: memory is flat in --samples
        // (no array of the times).
        try output.stream { write in
            var block = "t,value,velocity\n"
            for i in 0..<times.count {
                let t = times[i]
                let value = easing.value(at: t), velocity = easing.derivative(at: t)
                // A vertical tangent (circ-in at 1, cubic-bezier(0,1,1,0) at 0) is a finite value
                // with an infinite velocity: printed as inf. Only a value outside the formula's
                // domain is refused.
                guard value.isFinite, !velocity.isNaN else {
                    throw CLIError(
                        "'\(name)' is not defined at t = \(t) (its formula gives no number there); "
                            + "sample it where it is (t in [0, 1] for every named easing).")
                }
                block += CSV.row([t, value, velocity])
                if block.utf8.count >= 1 << 16 {
                    try write(block)
                    block = ""
                }
            }
            try write(block)
        }
    }

    /// The sample times: `--at`'s list, or `--samples` evenly spaced ones computed on demand.
    func sampleTimes() throws -> SampleTimes {
        if let at {
            guard samples == nil else { throw CLIError("'--samples' and '--at' cannot be combined: give one.") }
            return .listed(
                try at.split(separator: ",", omittingEmptySubsequences: false).map { part in
                    guard let t = Double(part.trimmingCharacters(in: .whitespaces)), t.isFinite else {
                        throw CLIError(
                            flag: "--at", value: "'\(part)'", rule: "a comma-separated list of finite numbers")
                    }
                    return t
                })
        }
        let count = samples ?? 101
        guard count >= 2 else {
            throw CLIError(flag: "--samples", value: "\(count)", rule: "an integer ≥ 2")
        }
        guard count <= 100_000_000 else {
            throw CLIError(flag: "--samples", value: "\(count)", rule: "at most 100000000")
        }
        return .even(count: count)
    }

    /// Times `i/(N−1)` without an array of them, or the listed ones.
    enum SampleTimes {
        case even(count: Int)
        case listed([Double])

        var count: Int {
            switch self {
            case .even(let count): return count
            case .listed(let times): return times.count
            }
        }

        subscript(i: Int) -> Double {
            switch self {
            case .even(let count): return Double(i) / Double(count - 1)
            case .listed(let times): return times[i]
            }
        }
    }
}
