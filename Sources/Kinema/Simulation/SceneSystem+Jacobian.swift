extension SceneSystem {
    /// The analytic Jacobian of the acceleration: `∂a/∂x` and `∂a/∂v`, each n × n row-major with
    /// n = `scene.coordinateCount`. Implicit reference methods (GSL's rk4imp, bsimp, msbdf) need it.
    ///
    /// For a spring with rest length L > 0, separation d (ℓ = |d|, n = d/ℓ, P = I − n·nᵀ) and
    /// relative velocity Δv, the force `F = −(k(ℓ − L) + c·Δv·n)·n` has
    /// ```
    /// ∂F/∂d  = −k·n·nᵀ − (k(ℓ − L) + c·Δv·n)·P/ℓ − c·n·(Δvᵀ·P)/ℓ
    /// ∂F/∂Δv = −c·n·nᵀ
    /// ```
    /// Resting contacts are left out (they only remove a normal component).
    /// - Complexity: O(n² + springs).
    public func jacobian(position: V, velocity: V) -> (positionPartials: [Double], velocityPartials: [Double]) {
        let n = scene.coordinateCount, d = dimensions
        var dx = [Double](repeating: 0, count: n * n), dv = [Double](repeating: 0, count: n * n)
        for (i, inverseMass) in inverseMasses.enumerated() {
            for axis in 0..<d { dv[(i * d + axis) * n + i * d + axis] -= drag * inverseMass }
        }
        for spring in springs {
            let x1 = vector(position, body: spring.first), v1 = vector(velocity, body: spring.first)
            let x2 = spring.second < 0 ? spring.anchor : vector(position, body: spring.second)
            let v2 = spring.second < 0 ? SIMD3<Double>.zero : vector(velocity, body: spring.second)
            let separation = x1 - x2, relative = v1 - v2
            var forceBySeparation = [[Double]](repeating: [0, 0, 0], count: 3)
            var forceByVelocity = [[Double]](repeating: [0, 0, 0], count: 3)
            if spring.restLength == 0 {
                for r in 0..<3 {
                    forceBySeparation[r][r] = -spring.stiffness
                    forceByVelocity[r][r] = -spring.damping
                }
            } else {
                let length = (separation * separation).sum().squareRoot()
                guard length > 0 else { continue }
                let unit = separation / length
                let tension = spring.stiffness * (length - spring.restLength) + spring.damping * (relative * unit).sum()
                for r in 0..<3 {
                    for c in 0..<3 {
                        let projector = (r == c ? 1 : 0) - unit[r] * unit[c]
                        var relativeProjected = 0.0
                        for m in 0..<3 { relativeProjected += relative[m] * ((m == c ? 1 : 0) - unit[m] * unit[c]) }
                        forceBySeparation[r][c] =
                            -spring.stiffness * unit[r] * unit[c] - tension * projector / length
                            - spring.damping * unit[r] * relativeProjected / length
                        forceByVelocity[r][c] = -spring.damping * unit[r] * unit[c]
                    }
                }
            }
            // a_first += F/m_first, a_second −= F/m_second; F depends on x_first − x_second.
            let ends = spring.second < 0 ? [(spring.first, 1.0)] : [(spring.first, 1.0), (spring.second, -1.0)]
            for (row, rowSign) in ends {
                for (column, columnSign) in ends {
                    let scale = rowSign * columnSign * inverseMasses[row]
                    for r in 0..<d {
                        for c in 0..<d {
                            dx[(row * d + r) * n + column * d + c] += scale * forceBySeparation[r][c]
                            dv[(row * d + r) * n + column * d + c] += scale * forceByVelocity[r][c]
                        }
                    }
                }
            }
        }
        return (dx, dv)
    }
}
