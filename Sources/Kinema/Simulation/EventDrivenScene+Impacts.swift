extension EventDrivenScene {
    // MARK: Motion between impacts

    /// Body `body`'s motion changed at `time` (`x`, `v` and `since` set there): its acceleration
    /// and its predictions anew.
    mutating func changed(_ body: Int) {
        changes[body] += 1
        setAcceleration(body)
        if !handedOff { predict(body) }
    }

    /// Sets body `body`'s acceleration for its state: gravity in flight; on a plane, gravity's
    /// component along it less Coulomb friction, μ times the pressing force, against the velocity
    /// (or, at rest, against the pull, holding it where μ·pressing is the larger). Queues the stop
    /// where friction slows it to rest; hands off where friction would turn it (gravity pulling
    /// across its velocity: no closed form).
    mutating func setAcceleration(_ body: Int) {
        guard inverseMass[body] > 0 else {
            a[body] = .zero
            return
        }
        let p = restsOn[body], g = scene.gravity
        guard p >= 0 else {
            a[body] = g
            return
        }
        let n = normals[p], along = g - (g * n).sum() * n
        let limit = scene.planes[p].friction * -(g * n).sum(), pull = (along * along).sum().squareRoot()
        guard limit > 0 else {
            a[body] = along
            return
        }
        let u = v[body], speed = (u * u).sum().squareRoot()
        guard speed > 0 else {
            a[body] = pull <= limit ? .zero : (1 - limit / pull) * along
            return
        }
        let direction = u / speed, pulled = (along * direction).sum(), across = along - pulled * direction
        guard (across * across).sum().squareRoot() <= ContactTolerances.rounding * max(pull, limit) else {
            return handOff()
        }
        a[body] = (pulled - limit) * direction
        let slowing = limit - pulled
        if slowing > 0 { push(.init(time: since[body] + speed / slowing, kind: .stop, body: body, other: -1), body) }
    }

    /// Body `body`'s motion restarted from its state at `time`, set on its plane where it rests.
    private mutating func rebase(_ body: Int) {
        var (p, u) = motion(body, at: time)
        let q = restsOn[body]
        if q >= 0 {
            let n = normals[q]
            p -= ((p * n).sum() - scene.planes[q].offset - radius[body]) * n
            u -= (u * n).sum() * n
        }
        (x[body], v[body], since[body]) = (p, u, time)
    }

    /// Body `body`, sliding on a plane with friction, stops.
    mutating func stop(_ body: Int) {
        rebase(body)
        v[body] = .zero
        changed(body)
    }

    /// Whether body `body`, resting on a plane before an impulse changed its velocity from
    /// `before` to `after`, still rests there: the impulse moved it along the plane only (to rounding).
    private func staysOnItsPlane(_ body: Int, before: SIMD3<Double>, after: SIMD3<Double>) -> Bool {
        let q = restsOn[body]
        guard q >= 0 else { return false }
        let normal = (after * normals[q]).sum()
        return abs(normal) <= ContactTolerances.rounding
            * ((after * after).sum() + (before * before).sum()).squareRoot()
    }

    /// Whether body `body`, resting on a plane, would move into it at `velocity`.
    private func isPushedIntoItsPlane(_ body: Int, _ velocity: SIMD3<Double>) -> Bool {
        let q = restsOn[body]
        guard q >= 0, inverseMass[body] > 0 else { return false }
        return (velocity * normals[q]).sum() < -ContactTolerances.rounding * (velocity * velocity).sum().squareRoot()
    }

    // MARK: Predictions

    /// Queues body `body`'s next impacts with planes and with the bodies of its and the
    /// neighbouring cells, and its next crossing into another cell.
    mutating func predict(_ body: Int) {
        let now = time, (xb, vb) = motion(body, at: now), ab = a[body]
        for (p, plane) in scene.planes.enumerated() where p != restsOn[body] {
            let n = normals[p]
            guard
                let s = ContactTime.closing(
                    gap: (xb * n).sum() - plane.offset - radius[body], rate: (vb * n).sum(),
                    acceleration: (ab * n).sum())
            else { continue }
            push(.init(time: now + s, kind: .plane(p), body: body, other: -1), body)
        }
        if radius[body] > 0 && scene.contacts != nil {
            for cell in grid.neighbours(of: cellOf[body]) {
                for other in members[cell] where other != body && radius[other] > 0 {
                    guard inverseMass[body] + inverseMass[other] > 0 else { continue }
                    let (xo, vo) = motion(other, at: now)
                    guard
                        let s = ContactTime.meeting(xb - xo, vb - vo, ab - a[other], radius[body] + radius[other])
                    else { continue }
                    push(.init(time: now + s, kind: .body, body: body, other: other), body)
                }
            }
        }
        if let (s, cell) = grid.crossing(from: xb, velocity: vb, acceleration: ab, cell: cellOf[body]) {
            push(.init(time: now + s, kind: .cell(cell), body: body, other: -1), body)
        }
    }

    private mutating func push(_ event: Event, _ body: Int) {
        var event = event
        event.bodyChanges = changes[body]
        if event.other >= 0 { event.otherChanges = changes[event.other] }
        queue.insert(event)
    }

    // MARK: Impacts (the stepper's impulses and rest rule, `Collisions`)

    /// A bounce off plane `p`; slower than the rest speed where gravity presses the body on, it
    /// comes to rest there. Hands off a body pressed into a second plane.
    mutating func collide(_ body: Int, plane p: Int, events: inout [ImpactEvent]) {
        let plane = scene.planes[p], n = normals[p]
        var (xb, before) = motion(body, at: time)
        xb -= ((xb * n).sum() - plane.offset - radius[body]) * n  // exactly on the surface
        var (tangential, speedIn, speedOut) = Collisions.planeBounce(
            before, normal: n, restitution: plane.restitution, friction: plane.friction)
        let rests = scene.rests(movingAt: speedOut, pressed: (scene.gravity * n).sum() < 0)
        if rests { speedOut = 0 }
        let after = tangential + speedOut * n, stays = staysOnItsPlane(body, before: before, after: after)
        // At rest on two planes: the stepper's contact forces hold it.
        if rests && stays {
            pendingImpact = (body, .plane(p))
            return handOff()
        }
        (x[body], v[body], since[body]) = (xb, after, time)
        events.append(
            ImpactEvent(
                time: time, body: body, hit: .plane(p), in: scene, speedIn: speedIn, speedOut: speedOut,
                jumps: [.init(body: body, position: xb, before: before, after: after)]))
        if rests {
            restsOn[body] = p
        } else if !stays {
            restsOn[body] = -1
        }
        rebase(body)
        changed(body)
    }

    /// Two spheres' impact. Where their bounce is slower than the rest speed and they accelerate
    /// into each other (a ball landing on one at rest), or where the impulse would push one into
    /// the plane it rests on (a ball on the floor hit from above), the queue hands the impact to
    /// the stepper, which resolves it with what the two touch as one impulse problem
    /// (`Collisions.impactOnRestingBodies`) and holds them by their contacts' forces.
    mutating func collide(_ first: Int, _ second: Int, events: inout [ImpactEvent]) {
        guard let contact = scene.contacts else { return }
        let (a, o) = (min(first, second), max(first, second))  // as the stepper reports a pair
        let wa = inverseMass[a], wo = inverseMass[o]
        let (positionA, beforeA) = motion(a, at: time), (positionO, beforeO) = motion(o, at: time)
        let separation = positionA - positionO
        let distance = (separation * separation).sum().squareRoot()
        let n = distance > 0 ? separation / distance : SIMD3<Double>(0, 0, 1)
        let (xa, xo) = Collisions.separated(
            positionA, positionO, overlap: -(distance - radius[a] - radius[o]), wa, wo, normal: n)
        let speedIn = max(-((beforeA - beforeO) * n).sum(), 0), speedOut = contact.restitution * speedIn
        if scene.rests(movingAt: speedOut, pressed: isPressed(a, o, normal: n)) {
            pendingImpact = (a, .body(o))
            return handOff()
        }
        let (va, vo) = Collisions.exchanged(
            beforeA, beforeO, wa, wo, normal: n, speedIn: speedIn, speedOut: speedOut, friction: contact.friction)
        if isPushedIntoItsPlane(a, va) || isPushedIntoItsPlane(o, vo) {
            pendingImpact = (a, .body(o))
            return handOff()
        }
        (x[a], v[a], since[a]) = (xa, va, time)
        (x[o], v[o], since[o]) = (xo, vo, time)
        events.append(
            ImpactEvent(
                time: time, body: a, hit: .body(o), in: scene, speedIn: speedIn,
                speedOut: speedOut,
                jumps: [
                    .init(body: a, position: xa, before: beforeA, after: va),
                    .init(body: o, position: xo, before: beforeO, after: vo)
                ]))
        // A static body's motion is unchanged: predictions against it stay valid.
        func moved(_ body: Int, from before: SIMD3<Double>) {
            guard inverseMass[body] > 0 else { return }
            if !staysOnItsPlane(body, before: before, after: v[body]) { restsOn[body] = -1 }
            rebase(body)
            changed(body)
        }
        moved(a, from: beforeA)
        moved(o, from: beforeO)
    }
}
