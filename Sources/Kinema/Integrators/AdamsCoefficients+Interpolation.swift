extension AdamsCoefficients {
    /// Where order q's block of `lagrangeInterpolant` starts: 12 Σ_{p<q} (p + 1).
    @inlinable
    static func lagrangeOffset(order q: Int) -> Int { 6 * (q - 1) * (q + 2) }

    /// The interpolant's weights w_i(θ) and w_i(1), i in 0 ..< order, of f_{n+1−i}: a sample needs
    /// no backward differences, and a flat state's lane costs O(q), not O(q²). Horner's rule on
    /// twelve lanes in three SIMD4s, not one w_i at a time: twelve independent chains, not twelve
    /// dependent ones.
    @_spi(Engine) @inlinable
    public static func interpolationWeights(order q: Int, at theta: Double) -> (
        atTheta: InlineStorage12<Double>, atEnd: InlineStorage12<Double>
    ) {
        var weights = (InlineStorage12<Double>(repeating: 0), InlineStorage12<Double>(repeating: 0))
        lagrangeInterpolant.withUnsafeBufferPointer { table in
            let block = UnsafeRawPointer(table.baseAddress! + lagrangeOffset(order: q))
            func row(_ k: Int, _ part: Int) -> SIMD4<Double> {
                block.loadUnaligned(fromByteOffset: (12 * k + 4 * part) * 8, as: SIMD4<Double>.self)
            }
            var low = row(q - 1, 0), middle = row(q - 1, 1), high = row(q - 1, 2)
            var k = q - 2
            while k >= 0 {
                low = low * theta + row(k, 0)
                middle = middle * theta + row(k, 1)
                high = high * theta + row(k, 2)
                k -= 1
            }
            withUnsafeMutableBytes(of: &weights.0) { lanes in
                lanes.storeBytes(of: low * theta, toByteOffset: 0, as: SIMD4<Double>.self)
                lanes.storeBytes(of: middle * theta, toByteOffset: 32, as: SIMD4<Double>.self)
                lanes.storeBytes(of: high * theta, toByteOffset: 64, as: SIMD4<Double>.self)
            }
            withUnsafeMutableBytes(of: &weights.1) { lanes in
                for part in 0..<3 {
                    lanes.storeBytes(of: row(q, part), toByteOffset: 32 * part, as: SIMD4<Double>.self)
                }
            }
        }
        return weights
    }
}
