@testable import Kinema

extension Trajectory {
    /// The deepest any ball is inside a plane or another ball over the samples.
    var deepestOverlap: Double {
        var deepest = 0.0
        for i in 0..<count {
            for (b, body) in scene.bodies.enumerated() {
                let x = position(atSample: i, ofBody: b)
                for plane in scene.planes {
                    deepest = max(deepest, plane.offset + body.radius - (x * plane.normal).sum())
                }
                for o in (b + 1)..<scene.bodies.count {
                    let d = x - position(atSample: i, ofBody: o)
                    deepest = max(deepest, body.radius + scene.bodies[o].radius - (d * d).sum().squareRoot())
                }
            }
        }
        return deepest
    }
}
