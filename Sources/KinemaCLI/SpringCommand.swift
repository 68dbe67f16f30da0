import ArgumentParser
import Kinema

/// `kinema spring`: one spring, converted to every dialect.
struct SpringCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spring",
        abstract: "Convert a spring between parameter dialects and compute its settling duration.",
        discussion: """
            Give the spring in exactly one dialect; prints it in all of them. Dialects without a mass \
            (tension/friction, bounciness/speed, origami) describe the unit-mass spring with the same motion. \
            bounciness is empty (null) when no bounciness ≥ 0 reaches the spring. motionDuration, motionBounce and \
            motionVisualDuration are Motion's (framer-motion's) unit-mass dialects, empty when ζ is outside Motion's \
            [0.05, 1]; Motion's duration is not SwiftUI's (response). settlingDuration is the \
            last time |x − to| exceeds epsilon × |to − from| for the motion from --from to --to.

            Examples:
              kinema spring --response 0.5 --bounce 0.3
              kinema spring --mass 1 --stiffness 100 --damping 10 --format json
              kinema spring --origami-tension 40 --origami-friction 7
              kinema spring --damped-cosine 5,30 --epsilon 0.0001
              kinema spring --motion-duration 0.8 --motion-bounce 0.25
            """
    )

    enum Format: String, CaseIterable {
        case text, json
    }

    @OptionGroup var spring: SpringOptions

    @Option(parsing: .unconditional, help: "Settling tolerance as a fraction of the travel (default 0.001).")
    var epsilon: Double = 0.001

    @Option(help: "Output format: text (default) or json.")
    var format: String = "text"

    @OptionGroup var output: OutputOptions

    func run() throws {
        try output.emit(try render())
    }

    /// The fields in output order; nil values print as empty (text) or null (JSON).
    func fields() throws -> [(name: String, value: Double?, text: String?)] {
        try Self.fields(spring.values, epsilon: epsilon)
    }

    /// The fields of the spring `flags` describe, settling within `epsilon` of the travel.
    static func fields(_ flags: SpringValues, epsilon: Double) throws -> [(name: String, value: Double?, text: String?)]
    {
        try check(epsilon, "--epsilon", .positive)
        let spring = try flags.spring()
        let ends = try flags.endpoints()
        let settling = try spring.settlingDuration(
            epsilon: epsilon, from: ends.from, to: ends.to, initialVelocity: ends.velocity)
        let cosine = spring.dampedCosine
        return [
            ("mass", spring.mass, nil), ("stiffness", spring.stiffness, nil), ("damping", spring.damping, nil),
            ("dampingRatio", spring.dampingRatio, nil), ("response", spring.response, nil),
            ("bounce", spring.bounce, nil), ("tension", spring.tension, nil), ("friction", spring.friction, nil),
            ("bounciness", spring.bounciness, nil), ("speed", spring.speed, nil),
            ("origamiTension", spring.origamiTension, nil), ("origamiFriction", spring.origamiFriction, nil),
            ("undampedFrequency", spring.undampedFrequency, nil), ("dampedFrequency", spring.dampedFrequency, nil),
            ("decayRate", spring.decayRate, nil),
            ("dampedCosineA", cosine?.decay, nil), ("dampedCosineB", cosine?.frequency, nil),
            ("motionDuration", spring.motionDuration, nil), ("motionBounce", spring.motionBounce, nil),
            ("motionVisualDuration", spring.motionVisualDuration, nil),
            ("settlingDuration", settling, nil), ("regime", nil, spring.regime.rawValue)
        ]
    }

    func render() throws -> String {
        try Self.render(fields(), as: choose(format, "--format"))
    }

    static func render(_ fields: [(name: String, value: Double?, text: String?)], as format: Format) -> String {
        switch format {
        case .text:
            let width = fields.map(\.name.count).max() ?? 0
            return fields.map { field in
                let value = field.text ?? field.value.map { "\($0)" } ?? ""
                return field.name + String(repeating: " ", count: width - field.name.count) + "  " + value
            }.joined(separator: "\n") + "\n"
        case .json:
            let members = fields.map { field in
                "  \(JSON.string(field.name)): " + (field.text.map(JSON.string) ?? JSON.number(field.value))
            }
            return "{\n" + members.joined(separator: ",\n") + "\n}\n"
        }
    }
}
