/// A motion and how to simulate or bake it, as plain values: the motion (a spring in any dialect,
/// a drop or a scene file, `SceneValues`), a run's settings (`simulate`, `sweep`) and a bake's
/// (`keyframes`). Each command builds one from its parsed flags, a sweep's rows set their values
/// in one, and a front end (kinema-studio) sets its fields by name. Every field is declared once,
/// as a flag beside its option (`SpringFlag`, `SceneFlag`, `SimulationFlag`, `BakeFlag`): its
/// name, its kind and its rule follow from there for every front end.
public struct MotionRequest: Sendable {
    var scene: SceneValues
    var simulation: SimulationValues
    var bake: BakeValues

    init(scene: SceneValues, simulation: SimulationValues = .init(), bake: BakeValues = .init()) {
        (self.scene, self.simulation, self.bake) = (scene, simulation, bake)
    }

    /// One field: a flag of one of the sets. A value, not a closure: threads running a sweep's
    /// rows share no closure context, whose reference count every row would write.
    enum Field: Sendable {
        case spring(SpringFlag), scene(SceneFlag), simulation(SimulationFlag), bake(BakeFlag)

        var kind: FlagKind {
            switch self {
            case .spring(let flag): return flag.kind
            case .scene(let flag): return flag.kind
            case .simulation(let flag): return flag.kind
            case .bake(let flag): return flag.kind
            }
        }

        /// `--origami-tension`.
        var name: String {
            switch self {
            case .spring(let flag): return flag.name
            case .scene(let flag): return flag.name
            case .simulation(let flag): return flag.name
            case .bake(let flag): return flag.name
            }
        }
    }

    /// Sets a number or whole-number field to `value`; false, leaving it as it was, when the
    /// field's type does not hold `value` exactly (a sweep's row is then parsed).
    mutating func set(_ field: Field, to value: Double) -> Bool {
        switch field {
        case .spring(let flag): return scene.springOptions.set(flag, to: value)
        case .scene(let flag): return scene.flags.set(flag, to: value)
        case .simulation(let flag): return simulation.set(flag, to: value)
        case .bake(let flag): return bake.set(flag, to: value)
        }
    }

    /// Gives a presence field (`--draw-planes`), or takes it back; false for a field that is
    /// not one.
    mutating func set(_ field: Field, given: Bool) -> Bool {
        guard case .presence = field.kind else { return false }
        switch field {
        case .spring(let flag): scene.springOptions.setPresence(flag, given: given)
        case .scene(let flag): scene.flags.setPresence(flag, given: given)
        case .simulation(let flag): simulation.setPresence(flag, given: given)
        case .bake(let flag): bake.setPresence(flag, given: given)
        }
        return true
    }

    /// Sets a text field to `text`; false for a field that is not text.
    mutating func set(_ field: Field, text: String) -> Bool {
        guard case .text = field.kind else { return false }
        switch field {
        case .spring(let flag): scene.springOptions[text: flag] = text
        case .scene(let flag): scene.flags[text: flag] = text
        case .simulation(let flag): simulation[text: flag] = text
        case .bake(let flag): bake[text: flag] = text
        }
        return true
    }

    /// A run's numeric fields by flag name (`simulate`, `sweep`): the spring's, the scene's and
    /// the simulation's.
    static let runFields: [String: Field] = fields(
        SpringFlag.allCases.map(Field.spring) + SceneFlag.allCases.map(Field.scene)
            + SimulationFlag.allCases.map(Field.simulation)
    ).filter { $0.value.kind.isNumeric }

    /// A bake's fields by flag name (`keyframes`): the spring's, the scene's and the bake's.
    static let bakeFields: [String: Field] = fields(
        SpringFlag.allCases.map(Field.spring) + SceneFlag.allCases.map(Field.scene) + BakeFlag.allCases.map(Field.bake))

    private static func fields(_ fields: [Field]) -> [String: Field] {
        Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension MotionRequest {
    /// The kinds of motion `kinema keyframes` bakes.
    public enum Kind: String, CaseIterable, Sendable {
        case easing, spring, drop, scene
    }

    /// A field of a bake as a front end names it: the flag's name in camelCase (`dampingRatio` for
    /// `--damping-ratio`), so that the CLI's messages, which name the flag, name the field too.
    public struct Parameter: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case number
            /// An easing's name, `'A,B'`, a scene file's text.
            case text
            /// Given or not (`--draw-planes`).
            case flag
        }
        public let name: String
        public let kind: Kind
    }

    /// The fields a bake of `kind` takes besides its kind: its own (a spring's are every dialect's
    /// parameters, its mass and its ends; a scene's are its file's text and its canvas), then the
    /// bake's duration, strategy and frame rate, and, but on a canvas (which bounds the error in
    /// pixels), the tolerance as a fraction of the travel.
    public static func parameters(of kind: Kind) -> [Parameter] {
        let own: [Field]
        switch kind {
        case .easing: own = [.bake(.easing)]
        case .spring: own = SpringFlag.allCases.map(Field.spring)
        case .drop: own = [SceneFlag.height, .gravity, .restitution, .restVelocity].map(Field.scene)
        case .scene: own = [.scene(.scene)] + BakeFlag.canvasFlags.map(Field.bake)
        }
        let settings = [BakeFlag.duration, .strategy, .fps] + (kind == .scene ? [] : BakeFlag.travelFlags)
        return (own + settings.map(Field.bake)).map { field in
            let kind: Parameter.Kind
            switch field.kind {
            case .text: kind = .text
            case .presence: kind = .flag
            case .number, .integer, .unsigned: kind = .number
            }
            return Parameter(name: InProcessCommands.parameter(forFlag: field.name), kind: kind)
        }
    }
}
