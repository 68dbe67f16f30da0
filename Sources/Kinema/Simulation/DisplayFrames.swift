/// Frame durations as a display link delivers them: a nominal rate with seeded, uniform jitter.
public enum DisplayFrames {
    /// Durations `(1/rate)·(1 + jitter·u)`, u uniform in [−1, 1] from a SplitMix64 stream seeded
    /// with `seed`, until they add up to `duration`; the last one is cut to end exactly there.
    /// - Throws: `KinemaError` unless rate > 0, 0 ≤ jitter < 1 and duration > 0 (all finite).
    public static func jittered(rate: Double, jitter: Double, duration: Double, seed: UInt64) throws -> [Double] {
        try KinemaError.requirePositive(rate, "frame rate")
        try KinemaError.requirePositive(duration, "duration")
        guard jitter.isFinite, jitter >= 0, jitter < 1 else {
            throw KinemaError(parameter: "frame jitter", value: "\(jitter)", rule: "a number in [0, 1)")
        }
        guard duration * rate <= 50_000_000 else {
            throw KinemaError(parameter: "duration × frame rate", value: "\(duration * rate)", rule: "at most 50000000 frames")
        }
        var state = seed
        var durations: [Double] = [], total = 0.0
        while total < duration {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let u = Double(z >> 11) / Double(1 << 53) * 2 - 1
            var frame = (1 / rate) * (1 + jitter * u)
            if total + frame >= duration * (1 - 1e-12) { frame = duration - total }
            durations.append(frame)
            total += frame
            if frame <= 0 { durations.removeLast(); break }
        }
        return durations
    }
}
