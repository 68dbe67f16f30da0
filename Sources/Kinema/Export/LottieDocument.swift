/// A complete, playable Lottie document for baked tracks: a composition (`v`, `fr`, `ip`/`op`,
/// `w`/`h`) with one shape layer per track (named by its key path: a square whose position,
/// scale, rotation or opacity the track animates), each keyframe's `o`/`i` handles its segment's
/// cubic-bezier controls. Values map linearly onto the property: `range.from` where the track's
/// value is 0, `range.to` where it is 1 (an easing's 0 → 1 onto pixels, percent or degrees; a
/// scene's metres onto pixels). Each track's keyframe count and max error are in `meta`.
public struct LottieDocument: Sendable {
    /// The transform property each layer animates.
    public enum Property: String, CaseIterable, Sendable {
        /// The layer's position (`p`), in pixels.
        case position
        /// Its scale (`s`), in percent.
        case scale
        /// Its rotation (`r`), in degrees.
        case rotation
        /// Its opacity (`o`), in percent.
        case opacity

        /// Where the values 0 and 1 land by default: pixels, percent, degrees, percent.
        public var defaultRange: (from: Double, to: Double) {
            switch self {
            case .position: (0, 400)
            case .scale, .opacity: (0, 100)
            case .rotation: (0, 360)
            }
        }
    }

    /// The property each layer animates.
    public let property: Property
    /// Where the track's values 0 and 1 land on the property.
    public let range: (from: Double, to: Double)
    /// Frames per second (`fr`); keyframe times are in frames.
    public let frameRate: Double
    /// The composition's width in pixels (`w`).
    public let width: Int
    /// The composition's height in pixels (`h`).
    public let height: Int

    /// `LottieDocument()`: the position of a 512 × 512 layer at 60 fps.
    public static let standard = LottieDocument(
        validatedProperty: .position, range: Property.position.defaultRange, frameRate: 60, width: 512, height: 512)

    /// - Throws: `KinemaError` for a frame rate that is not finite and > 0, a range end that is
    ///   not finite, or a size outside 1…16,384.
    public init(
        property: Property = .position, range: (from: Double, to: Double)? = nil, frameRate: Double = 60,
        width: Int = 512, height: Int = 512
    ) throws {
        try KinemaError.requirePositive(frameRate, "frame rate")
        let range = range ?? property.defaultRange
        guard range.from.isFinite, range.to.isFinite else {
            throw KinemaError(parameter: "range", value: "\(range.from):\(range.to)", rule: "two finite numbers")
        }
        for (name, size) in [("width", width), ("height", height)] where !(1...16_384).contains(size) {
            throw KinemaError(parameter: name, value: "\(size)", rule: "1 to 16384 pixels")
        }
        self.init(validatedProperty: property, range: range, frameRate: frameRate, width: width, height: height)
    }

    private init(
        validatedProperty property: Property, range: (from: Double, to: Double), frameRate: Double, width: Int,
        height: Int
    ) {
        self.property = property
        self.range = range
        self.frameRate = frameRate
        self.width = width
        self.height = height
    }

    /// The document for `fits` (one layer each, top to bottom in order), as JSON text.
    public func json(_ fits: [KeyframeFit]) -> String {
        let n = KeyframeExport.number
        let duration = fits.map(\.animation.duration).max() ?? 0
        // Lottie's out point is exclusive (frames ip ≤ f < op play): one past the last keyframe's frame.
        let lastFrame = (duration * frameRate).rounded(.down) + 1
        var layers: [String] = []
        for (i, fit) in fits.enumerated() {
            let row = Double(height) * (Double(i) + 0.5) / Double(max(fits.count, 1))
            let animated =
                "{\"a\": 1, \"k\": [\n        " + keyframes(fit).joined(separator: ",\n        ") + "\n      ]}"
            let position =
                property == .position
                ? "{\"s\": true, \"x\": \(animated), \"y\": {\"a\": 0, \"k\": \(n(row))}}"
                : "{\"a\": 0, \"k\": [\(n(Double(width) / 2)), \(n(row))]}"
            let transform = [
                "\"a\": {\"a\": 0, \"k\": [0, 0]}",
                "\"p\": \(position)",
                "\"s\": \(property == .scale ? animated : "{\"a\": 0, \"k\": [100, 100]}")",
                "\"r\": \(property == .rotation ? animated : "{\"a\": 0, \"k\": 0}")",
                "\"o\": \(property == .opacity ? animated : "{\"a\": 0, \"k\": 100}")"
            ]
            layers.append(
                """
                {"ddd": 0, "ind": \(i + 1), "ty": 4, "nm": \(KeyframeExport.string(fit.animation.keyPath)), "sr": 1, "ao": 0, "bm": 0,
                    "ip": 0, "op": \(n(lastFrame)), "st": 0,
                    "ks": {
                      \(transform.joined(separator: ",\n      "))
                    },
                    "shapes": [
                      {"ty": "rc", "nm": "square", "d": 1, "s": {"a": 0, "k": [20, 20]}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0}},
                      {"ty": "fl", "nm": "fill", "c": {"a": 0, "k": [0.2, 0.4, 0.9, 1]}, "o": {"a": 0, "k": 100}, "r": 1}
                    ]}
                """)
        }
        let tracks = fits.map {
            "{\"name\": \(KeyframeExport.string($0.animation.keyPath)), \"keyframeCount\": \($0.keyframeCount), "
                + "\"maxError\": \(KeyframeExport.upward(error($0)))}"
        }
        let worst = KeyframeExport.upward(fits.map(error).max() ?? 0)
        return """
            {"v": "5.7.0", "fr": \(n(frameRate)), "ip": 0, "op": \(n(lastFrame)), "w": \(width), "h": \(height), "nm": "kinema", "ddd": 0,
              "assets": [],
              "layers": [
                \(layers.joined(separator: ",\n    "))
              ],
              "meta": {"g": "kinema", "d": \(KeyframeExport.string("\(fits.count) track(s), \(property.rawValue) from \(n(range.from)) (value 0) to \(n(range.to)) (value 1); max error \(worst) in the tracks' own units")),
                "tracks": [\(tracks.joined(separator: ", "))]}
            }

            """
    }

    /// `fit` on the property's units (`range`).
    func mapped(_ fit: KeyframeFit) -> KeyframeFit {
        let mapping = ValueMapping(validatedScale: range.to - range.from, offset: range.from)
        return mapping == .identity ? fit : (try? fit.mapped(mapping)) ?? fit
    }

    /// The most a layer can be from the track's source, in the track's own units: the fit's
    /// error and the rounding's on the property.
    func error(_ fit: KeyframeFit) -> Double {
        let scale = abs(range.to - range.from)
        return scale > 0 && scale.isFinite ? mapped(fit).exportedMaxError / scale : fit.maxError
    }

    /// The track's keyframes on the property: `t` in frames, `s` the mapped value (twice for
    /// scale's x and y), `o`/`i` the segment's bezier controls (unchanged by the linear map), numbers
    /// to the mapped fit's precision.
    func keyframes(_ fit: KeyframeFit) -> [String] {
        let fit = mapped(fit), a = fit.animation, p = fit.precision
        let width = property == .scale ? 2 : 1
        func list(_ x: String) -> String { "[" + Array(repeating: x, count: width).joined(separator: ", ") + "]" }
        let t = p.frames(a.keyTimes, duration: a.duration, frameRate: frameRate)
        return a.keyTimes.indices.map { i in
            var entry = "{\"t\": \(t[i]), \"s\": \(list(p.value(a.values[i][0])))"
            if i < a.timingFunctions.count {
                let f = a.timingFunctions[i], c = p.control
                entry +=
                    ", \"o\": {\"x\": \(list(c(f.x1))), \"y\": \(list(c(f.y1)))}, \"i\": {\"x\": \(list(c(f.x2))), \"y\": \(list(c(f.y2)))}"
            }
            return entry + "}"
        }
    }
}
