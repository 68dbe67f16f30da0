/// When a body under a constant acceleration first reaches what it moves towards, in closed form
/// or from the roots of a polynomial: the predictions of the event queue (`EventDrivenScene`).
/// Every function returns the time from now, or nil when it never comes.
enum ContactTime {
    /// The first s ≥ 0 at which the gap `gap + rate·s + acceleration·s²/2` (to a plane, or a cell's
    /// wall) reaches 0 while closing; 0 when it is closed already (≤ 0) and closing.
    static func closing(gap: Double, rate: Double, acceleration: Double) -> Double? {
        let half = 0.5 * acceleration
        // Closed and closing, or opening too slowly to part before the acceleration closes it
        // again (its peak, gap + rate²/(4·|half|), is not above 0): met now.
        if gap <= 0 && (rate < 0 || (half < 0 && gap - rate * rate / (4 * half) <= 0)) { return 0 }
        guard half != 0 else { return rate < 0 ? max(0, gap / -rate) : nil }
        // The roots of gap + rate·s + half·s², without cancellation: q = −(rate + sign·√D)/2.
        let discriminant = rate * rate - 4 * half * gap
        guard discriminant >= 0, discriminant.isFinite else { return nil }
        let q = -0.5 * (rate + (rate >= 0 ? 1 : -1) * discriminant.squareRoot())
        let (r1, r2) = (q / half, q != 0 ? gap / q : 0)
        let (low, high) = (min(r1, r2), max(r1, r2))
        // Opening upwards the gap closes through the lower root, opening downwards the higher.
        let root = half > 0 ? low : high
        guard root.isFinite, root >= 0 else { return nil }
        return root
    }

    /// The first s ≥ 0 at which a body at `gap` inside a cell's wall, moving towards it at
    /// −`rate` and accelerating at −`acceleration`, crosses it. A body beyond the wall by
    /// rounding (it crossed just now) counts as on it, so that it is not sent back at once:
    /// where it turns back, it crosses when it comes back.
    static func crossing(gap: Double, rate: Double, acceleration: Double) -> Double? {
        guard gap <= 0 else { return closing(gap: gap, rate: rate, acceleration: acceleration) }
        if rate < 0 || (rate == 0 && acceleration < 0) { return 0 }
        return acceleration < 0 ? -2 * rate / acceleration : nil
    }

    /// When two spheres at separation `d`, moving apart at `u`, come to distance `reach`: the
    /// smaller root of |d + s·u|² = reach², if they approach; 0 if they approach already touching.
    static func meeting(_ d: SIMD3<Double>, _ u: SIMD3<Double>, _ reach: Double) -> Double? {
        // In units of the largest length and the fastest speed, so that neither |d|² nor |u|²
        // overflows (coordinates and speeds up to 1e308): s = (L/V)·s' with d = L·d', u = V·u'.
        let length = max(abs(d.x), abs(d.y), abs(d.z), reach), speed = max(abs(u.x), abs(u.y), abs(u.z))
        guard speed > 0, speed.isFinite, length > 0, length.isFinite else { return nil }
        return meetingAtUnitScale(d / length, u / speed, reach / length).map { $0 * (length / speed) }
    }

    private static func meetingAtUnitScale(_ d: SIMD3<Double>, _ u: SIMD3<Double>, _ reach: Double) -> Double? {
        let b = (d * u).sum()
        guard b < 0 else { return nil }
        let uu = (u * u).sum(), c = (d * d).sum() - reach * reach
        if c <= 0 { return 0 }
        let discriminant = b * b - uu * c
        guard discriminant >= 0 else { return nil }
        return c / (-b + discriminant.squareRoot())  // the smaller root, without cancellation
    }

    /// When two spheres at separation `d`, moving apart at `u` and accelerating apart at `w` (a
    /// body in flight against one resting on a plane or static), first come to distance `reach`
    /// while approaching: the first root of the quartic |d + s·u + s²/2·w|² = reach² where it
    /// falls; 0 if they approach already touching.
    static func meeting(_ d: SIMD3<Double>, _ u: SIMD3<Double>, _ w: SIMD3<Double>, _ reach: Double) -> Double? {
        guard w != .zero else { return meeting(d, u, reach) }
        // In units of the largest length L and a time T in which neither the speed nor the
        // acceleration moves a body by more than about L: d = L·d', u = (L/T)·u', w = (L/T²)·w'.
        let length = max(abs(d.x), abs(d.y), abs(d.z), reach)
        let speed = max(abs(u.x), abs(u.y), abs(u.z)), acceleration = max(abs(w.x), abs(w.y), abs(w.z))
        guard length > 0, length.isFinite, speed.isFinite, acceleration.isFinite else { return nil }
        let rate = max(speed / length, (acceleration / length).squareRoot())
        guard rate > 0, rate.isFinite else { return nil }
        let unitTime = 1 / rate
        let d = d / length, u = u * (unitTime / length), h = w * (0.5 * unitTime * unitTime / length)
        let reach = reach / length
        // f(s) = |d + s·u + s²·h|² − reach², ascending coefficients.
        let f = Quartic(
            (d * d).sum() - reach * reach, 2 * (d * u).sum(), (u * u).sum() + 2 * (d * h).sum(), 2 * (u * h).sum(),
            (h * h).sum())
        if f[0] <= 0 && f[1] < 0 { return 0 }
        // Beyond the time where |h|s² − |u|s − |d| exceeds reach, the spheres are apart for good.
        let hh = (h * h).sum().squareRoot(), uu = (u * u).sum().squareRoot(), dd = (d * d).sum().squareRoot()
        let horizon = (uu + (uu * uu + 4 * hh * (dd + reach)).squareRoot()) / (2 * hh)
        guard horizon.isFinite, horizon > 0 else { return nil }
        func gap(_ s: Double) -> Double {
            let p = d + s * u + (s * s) * h
            return (p * p).sum().squareRoot() - reach
        }
        var pieces = f.derivative.roots(in: 0, horizon)
        pieces.append(horizon)
        // Touching and parting too slowly to come apart before they close again: met now.
        if f[0] <= 0 && f.value(pieces[0]) <= 0 { return 0 }
        var start = 0.0
        for i in 0..<pieces.count where pieces[i] > start {
            let end = pieces[i]
            defer { start = end }
            // Closing through 0 on this monotone piece; a first piece that starts touching and opens is skipped.
            guard f.value(start) > 0, f.value(end) <= 0 else { continue }
            let s = gap(end) < 0 ? Collisions.lastNonNegative(start, end, gap) : end
            return s * unitTime
        }
        return nil
    }
}

/// A polynomial of degree at most four, its coefficients ascending, on the stack.
struct Quartic {
    private var c: SIMD8<Double>
    let degree: Int

    init(_ c0: Double, _ c1: Double, _ c2: Double, _ c3: Double, _ c4: Double) {
        let coefficients = SIMD8(c0, c1, c2, c3, c4, 0, 0, 0)
        var degree = 4
        while degree > 0 && coefficients[degree] == 0 { degree -= 1 }
        (c, self.degree) = (coefficients, degree)
    }

    private init(coefficients: SIMD8<Double>, degree: Int) {
        (c, self.degree) = (coefficients, degree)
    }

    subscript(i: Int) -> Double { c[i] }

    func value(_ s: Double) -> Double {
        var value = c[degree]
        for i in stride(from: degree - 1, through: 0, by: -1) { value = value * s + c[i] }
        return value
    }

    var derivative: Quartic {
        var d = SIMD8<Double>.zero
        for i in 0..<max(degree, 1) { d[i] = Double(i + 1) * c[i + 1] }
        return Quartic(coefficients: d, degree: max(degree - 1, 0))
    }

    /// The real roots in (a, b), ascending, each to the last bit: the polynomial is monotone
    /// between its derivative's roots, so each of those pieces holds at most one, bracketed.
    func roots(in a: Double, _ b: Double) -> Roots {
        var found = Roots()
        guard degree > 0 else { return found }
        if degree == 1 {
            let s = -c[0] / c[1]
            if s > a && s < b { found.append(s) }
            return found
        }
        var pieces = derivative.roots(in: a, b)
        pieces.append(b)
        var start = a, fs = value(a)
        for i in 0..<pieces.count {
            let end = pieces[i], fe = value(end)
            if fe == 0 && end < b {
                found.append(end)
            } else if (fs < 0 && fe > 0) || (fs > 0 && fe < 0) {
                let sign = fs > 0 ? 1.0 : -1.0
                found.append(Collisions.lastNonNegative(start, end) { sign * value($0) })
            }
            (start, fs) = (end, fe)
        }
        return found
    }

    /// At most four roots, on the stack.
    struct Roots {
        private var storage = SIMD8<Double>.zero
        private(set) var count = 0
        mutating func append(_ s: Double) {
            storage[count] = s
            count += 1
        }
        subscript(i: Int) -> Double { storage[i] }
    }
}
