/// Frame durations as a display link delivers them: a nominal rate with seeded, uniform jitter.
package enum DisplayFrames {
    /// Durations `(1/rate)·(1 + jitter·u)`, u uniform in [−1, 1] from a SplitMix64 stream seeded
    /// with `seed`, until they add up to `duration`; the last one is cut to end exactly there.
    /// - Throws: `KinemaError` unless rate > 0, 0 ≤ jitter < 1 and duration > 0 (all finite).
    package static func jittered(rate: Double, jitter: Double, duration: Double, seed: UInt64) throws -> [Double] {
        Array(try Jittered(rate: rate, jitter: jitter, duration: duration, seed: seed))
    }

    /// The same durations one at a time, for runs too long to hold them (at most 50,000,000).
    package struct Jittered: Sequence, IteratorProtocol, Sendable {
        let rate: Double
        let jitter: Double
        let duration: Double
        var state: UInt64
        var total = 0.0
        var done = false

        /// - Throws: `KinemaError` unless rate > 0, 0 ≤ jitter < 1 and duration > 0 (all finite),
        ///   and duration × rate ≤ 50,000,000.
        package init(rate: Double, jitter: Double, duration: Double, seed: UInt64) throws {
            try KinemaError.requirePositive(rate, "frame rate")
            try KinemaError.requirePositive(duration, "duration")
            guard jitter.isFinite, jitter >= 0, jitter < 1 else {
                throw KinemaError(parameter: "frame jitter", value: "\(jitter)", rule: "a number in [0, 1)")
            }
            guard duration * rate <= 50_000_000 else {
                throw KinemaError(
                    parameter: "duration × frame rate", value: "\(duration * rate)", rule: "at most 50000000 frames")
            }
            self.rate = rate
            self.jitter = jitter
            self.duration = duration
            state = seed
        }

        package mutating func next() -> Double? {
            guard !done, total < duration else { return nil }
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let u = Double(z >> 11) / Double(1 << 53) * 2 - 1
            var frame = (1 / rate) * (1 + jitter * u)
            if total + frame >= duration * (1 - ContactTolerances.timeRounding) { frame = duration - total }
            guard frame > 0 else {
                done = true
                return nil
            }
            total += frame
            return frame
        }
    }
}
