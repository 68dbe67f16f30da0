/// How a scene's units map to a canvas's pixels: x to the right and, as screens have it, y down
/// (the scene's y flipped unless `flipsY` is false), the scene's origin at `origin`.
public struct CanvasMapping: Hashable, Sendable {
    /// The canvas width in pixels.
    public let width: Double
    /// The canvas height in pixels.
    public let height: Double
    /// Pixels per scene unit (per metre for a scene in metres).
    public let pixelsPerUnit: Double
    /// The canvas pixel where the scene's origin is.
    public let origin: SIMD2<Double>
    /// Whether the scene's y points up and the canvas's down (true), so that the scene's up is the
    /// screen's up; false for a scene written in screen coordinates.
    public let flipsY: Bool

    /// - Throws: `KinemaError` for a size outside 1…16384 px, a non-positive or non-finite scale,
    ///   or a non-finite origin.
    public init(width: Double, height: Double, pixelsPerUnit: Double, origin: SIMD2<Double>, flipsY: Bool = true) throws
    {
        for (name, size) in [("width", width), ("height", height)] where !(size >= 1 && size <= 16_384) {
            throw KinemaError(parameter: name, value: "\(size)", rule: "1 to 16384 pixels")
        }
        try KinemaError.requirePositive(pixelsPerUnit, "pixelsPerUnit")
        guard origin.x.isFinite, origin.y.isFinite else {
            throw KinemaError(parameter: "origin", value: "\(origin.x),\(origin.y)", rule: "two finite numbers")
        }
        (self.width, self.height, self.pixelsPerUnit, self.origin, self.flipsY) =
            (width, height, pixelsPerUnit, origin, flipsY)
    }

    /// The canvas that shows every body of `trajectory` (its radius included) at every sample,
    /// as large as fits within `margin` pixels of each edge, centred.
    /// - Throws: `KinemaError` for a scene of one dimension, or a size or margin that leaves no room.
    public static func fitting(
        _ trajectory: Trajectory, width: Double = 800, height: Double = 600, margin: Double = 16, flipsY: Bool = true
    ) throws -> CanvasMapping {
        let scene = trajectory.scene, d = scene.dimensions
        guard d >= 2 else {
            throw KinemaError(parameter: "dimensions", value: "\(d)", rule: "2 or 3 for a canvas (x and y)")
        }
        for (name, size) in [("width", width), ("height", height)] where !(size >= 1 && size <= 16_384) {
            throw KinemaError(parameter: name, value: "\(size)", rule: "1 to 16384 pixels")
        }
        guard margin >= 0, width - 2 * margin >= 1, height - 2 * margin >= 1 else {
            throw KinemaError(parameter: "margin", value: "\(margin)", rule: "≥ 0 and leaving at least 1 pixel inside")
        }
        var low = SIMD2(Double.infinity, .infinity), high = -low
        for sample in 0..<trajectory.count {
            for (b, body) in scene.bodies.enumerated() {
                let p = SIMD2(
                    trajectory.position(atSample: sample, coordinate: b * d),
                    trajectory.position(atSample: sample, coordinate: b * d + 1))
                low = pointwiseMin(low, p - body.radius)
                high = pointwiseMax(high, p + body.radius)
            }
        }
        let span = pointwiseMax(high - low, SIMD2(repeating: 1e-9 * max(1, (high - low).max())))
        let scale = min((width - 2 * margin) / span.x, (height - 2 * margin) / span.y)
        let centre = (low + high) / 2
        let origin = SIMD2(width / 2 - scale * centre.x, height / 2 + (flipsY ? scale : -scale) * centre.y)
        return try CanvasMapping(width: width, height: height, pixelsPerUnit: scale, origin: origin, flipsY: flipsY)
    }

    /// The canvas x of a scene x.
    public func x(_ x: Double) -> Double { origin.x + pixelsPerUnit * x }
    /// The canvas y of a scene y.
    public func y(_ y: Double) -> Double { origin.y + (flipsY ? -pixelsPerUnit : pixelsPerUnit) * y }

    /// The part of `plane`'s surface (`n·x = offset`) that crosses the canvas, as a segment in
    /// pixels; nil where the plane is not seen edge-on (a 3-D plane whose normal leans along z,
    /// facing the viewer) or where its line misses the canvas.
    public func segment(of plane: Plane) -> (from: SIMD2<Double>, to: SIMD2<Double>)? {
        let n = SIMD2(plane.normal.x, plane.normal.y)
        guard plane.normal.z == 0, (n * n).sum() > 0 else { return nil }
        // The line through the point nearest the origin, along n turned a quarter.
        let foot = plane.offset / (n * n).sum() * n, along = SIMD2(-n.y, n.x)
        let start = SIMD2(x(foot.x), y(foot.y)), step = SIMD2(x(foot.x + along.x), y(foot.y + along.y)) - start
        // Liang–Barsky: the parameters where the line is inside each edge of the canvas.
        var low = -Double.infinity, high = Double.infinity
        for (p, q) in [(-step.x, start.x), (step.x, width - start.x), (-step.y, start.y), (step.y, height - start.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else if p < 0 {
                low = max(low, q / p)
            } else {
                high = min(high, q / p)
            }
        }
        let from = start + low * step, to = start + high * step
        guard low < high, from.x.isFinite, from.y.isFinite, to.x.isFinite, to.y.isFinite else { return nil }
        return (from, to)
    }
}
