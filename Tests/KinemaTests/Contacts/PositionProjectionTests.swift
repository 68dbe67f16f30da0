import KinemaTestSupport
import Testing

@_spi(Engine) @testable import Kinema

/// The position projection's overlaps closed together, against the one arrangement a wedged row
/// can take.
struct PositionProjectionTests {
    /// Twenty balls of radius 0.04 on the floor of a box 1.6 wide fill it exactly: without
    /// overlap, ball i's centre can only be at 0.04 + 0.08 i, on the floor. Squeezed by up to
    /// 1e-6 and sunk 1e-7 into the floor, the row's pushes travel a ball per sweep; solved
    /// together, every overlap closes to the projection's tolerance and each ball sits where the
    /// row puts it, within the tolerance summed over the row.
    @Test func aRowWedgedBetweenWallsClosesToItsOnlyArrangement() throws {
        let n = 20, r = 0.04
        let planes = [
            try Plane(name: "floor", normal: SIMD3(0, 1, 0), restitution: 0),
            try Plane(name: "left", normal: SIMD3(1, 0, 0), restitution: 0),
            try Plane(name: "right", normal: SIMD3(-1, 0, 0), offset: -1.6, restitution: 0)
        ]
        var generator = SplitMix64(seed: 3)
        var x = (0..<n).map { i in
            SIMD3(r + 2 * r * Double(i) + Double.random(in: -1e-6...1e-6, using: &generator), r - 1e-7, 0)
        }
        let w = [Double](repeating: 1, count: n), radii = [Double](repeating: r, count: n)
        func contact(_ body: Int, _ other: Contact.Other, mass: Double) -> Contact {
            Contact(
                body: body, other: other, normal: SIMD3(1, 0, 0), gap: 0, scale: 1, mass: mass, restitution: 0,
                friction: 0)
        }
        var contacts = (0..<n).map { contact($0, .plane(0), mass: 1) }
        contacts += [contact(0, .plane(1), mass: 1), contact(n - 1, .plane(2), mass: 1)]
        contacts += (0..<n - 1).map { contact($0 + 1, .body($0), mass: 0.5) }

        var pushes = [Double](repeating: 0, count: contacts.count)
        let left = PositionProjection.closeTogether(
            &contacts, positions: &x, inverseMasses: w, radii: radii, planes: planes, pushes: &pushes)

        #expect(left.depth <= ContactTolerances.overlap)
        for c in contacts.indices {
            let gap = PositionProjection.gap(contacts[c], x, radii, planes).gap
            #expect(gap >= -ContactTolerances.overlap, "contact \(c)")
        }
        let bound = Double(n + 1) * ContactTolerances.overlap
        for i in 0..<n {
            #expect(abs(x[i].x - (r + 2 * r * Double(i))) <= bound, "ball \(i) x")
            #expect(abs(x[i].y - r) <= bound, "ball \(i) y")
        }
    }
}
