@_spi(Studio) import Kinema
import KinemaCLI

/// `GET /api/catalog`: what a bake can ask for (the easings, the spring dialects, the export
/// formats, the example scenes) and the studio's limits.
enum Catalog {
    static let json: String =
        JSONText.object([
            ("easings", "[" + Easing.fixedNames.map(JSONText.string).joined(separator: ", ") + "]"),
            (
                "parameterizedEasings",
                "["
                    + [
                        "cubic-bezier(0.25,0.1,0.25,1)", "damped-cosine(5,30)", "back-out(1.70158)",
                        "elastic-out(1,0.3)",
                        "poly-in-out(3)"
                    ].map(JSONText.string).joined(separator: ", ") + "]"
            ),
            (
                "springDialects",
                "["
                    + InProcessCommands.springDialects.map { dialect in
                        JSONText.object([
                            ("name", JSONText.string(dialect.name)),
                            ("parameters", "[" + dialect.parameters.map(JSONText.string).joined(separator: ", ") + "]"),
                            ("takesMass", dialect.takesMass ? "true" : "false")
                        ])
                    }.joined(separator: ", ") + "]"
            ),
            ("formats", "[" + InProcessCommands.keyframeFormats.map(JSONText.string).joined(separator: ", ") + "]"),
            ("scenes", scenes),
            (
                "limits",
                JSONText.object([
                    ("duration", JSONText.number(BakeRequest.Limit.duration)),
                    ("tolerance", JSONText.number(BakeRequest.Limit.tolerance)),
                    ("fps", JSONText.number(BakeRequest.Limit.fps)),
                    ("oscillations", JSONText.number(BakeRequest.Limit.oscillations)),
                    ("bodyBytes", "\(BakeRequest.Limit.bodyBytes)"),
                    ("sceneBodies", "\(BakeRequest.Limit.sceneBodies)"),
                    ("sceneDuration", JSONText.number(BakeRequest.Limit.sceneDuration))
                ])
            )
        ]) + "\n"

    /// The scene tab's examples: each file's name, label, duration and text.
    private static var scenes: String {
        let examples = SceneExamples.all.map { example -> String in
            JSONText.object([
                ("file", JSONText.string(example.file)), ("label", JSONText.string(example.label)),
                ("duration", JSONText.number(example.duration)), ("scene", JSONText.string(example.text))
            ])
        }
        return "[" + examples.joined(separator: ", ") + "]"
    }
}
