import KinemaTestSupport
import Testing

@testable import Kinema

/// The exact fractions the Adams tables are computed in: each result is checked by cross
/// multiplication (p/q = r/s exactly when p·s = r·q), which does not go through the gcd the type
/// reduces with, and must be in lowest terms with a positive denominator.
struct FractionTests {
    @Test func arithmeticIsExactAndReduced() {
        var rng = SplitMix64(seed: 37)
        func term(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func expectEqual(_ x: Fraction, _ numerator: Int, _ denominator: Int, _ what: String) {
            #expect(x.numerator * denominator == numerator * x.denominator, "\(what) = \(x)")
            #expect(x.denominator > 0, "\(what): denominator \(x.denominator)")
            var (a, b) = (x.numerator.magnitude, UInt(x.denominator))
            while b != 0 { (a, b) = (b, a % b) }
            #expect(a == 1 || x.numerator == 0 && x.denominator == 1, "\(what) = \(x) is not in lowest terms")
        }
        for _ in 0..<2_000 {
            let (p, q, r, s) = (
                term(-999...999), term(1...999) * (term(0...1) == 0 ? 1 : -1), term(-999...999), term(1...999)
            )
            let x = Fraction(p, q), y = Fraction(r, s)
            expectEqual(x, p, q, "\(p)/\(q)")
            expectEqual(x + y, p * s + r * q, q * s, "\(p)/\(q) + \(r)/\(s)")
            expectEqual(x - y, p * s - r * q, q * s, "\(p)/\(q) − \(r)/\(s)")
            expectEqual(x * y, p * r, q * s, "\(p)/\(q) · \(r)/\(s)")
            if r != 0 { expectEqual(x / y, p * s, q * r, "\(p)/\(q) ÷ \(r)/\(s)") }
        }
    }

    /// One rounding: H₁₂ = Σ_{k≤12} 1/k = 86021/27720 (the harmonic number), summed exactly, then
    /// divided once.
    @Test func roundsOnce() {
        let harmonic = (1...12).reduce(Fraction(0)) { $0 + Fraction(1, $1) }
        #expect(Double(harmonic) == 86021.0 / 27720.0)
        #expect(Double(Fraction(2, 6)) == 1.0 / 3.0)
        #expect(Double(Fraction(0, -5)).sign == .plus)
    }
}
