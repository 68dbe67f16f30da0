/// An exact fraction in lowest terms (the denominator positive), for tables computed once whose
/// entries must each carry a single rounding: `Double(_:)`'s one division. The terms are `Int`s,
/// cancelled before they are multiplied; a table that outgrew them would trap on its first use,
/// which every run of the tests makes.
struct Fraction {
    private(set) var numerator: Int
    private(set) var denominator: Int

    init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(denominator != 0, "a fraction's denominator is not 0")
        let divisor = Self.gcd(numerator, denominator) * (denominator < 0 ? -1 : 1)
        (self.numerator, self.denominator) = (numerator / divisor, denominator / divisor)
    }

    /// Euclid's, 1 for 0 and 0.
    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a.magnitude, b.magnitude)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : Int(a)
    }

    static func + (a: Self, b: Self) -> Self {
        let g = gcd(a.denominator, b.denominator)
        return Self(
            a.numerator * (b.denominator / g) + b.numerator * (a.denominator / g), a.denominator / g * b.denominator)
    }
    static func - (a: Self, b: Self) -> Self { a + Self(-b.numerator, b.denominator) }
    static func * (a: Self, b: Self) -> Self {
        let g = gcd(a.numerator, b.denominator), h = gcd(b.numerator, a.denominator)
        return Self((a.numerator / g) * (b.numerator / h), (a.denominator / h) * (b.denominator / g))
    }
    static func / (a: Self, b: Self) -> Self { a * Self(b.denominator, b.numerator) }
    static func += (a: inout Self, b: Self) { a = a + b }
}

extension Double {
    /// The fraction by one division (terms up to 2⁵³ are exact in a Double).
    init(_ fraction: Fraction) {
        self = Double(fraction.numerator) / Double(fraction.denominator)
    }
}
