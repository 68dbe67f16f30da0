/// Why a simulation stopped without a result.
public enum SimulationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An adaptive method could not meet its tolerance with any representable step.
    case stepSizeUnderflow(time: Double, step: Double)
    /// The state blew up (non-finite) or a passive scene gained energy: the step is too large for
    /// the method. `largestStableStep` is the method's limit for the scene's stiffest spring.
    case unstable(time: Double, reason: String, timeStep: Double, largestStableStep: Double, method: String)
    /// More collision events than the simulator allows in one run.
    case tooManyEvents(time: Double, limit: Int)
    /// More steps than the simulator allows in one run.
    case tooManySteps(time: Double, limit: Int)
    /// Refused before the first step: the run would take more steps than its budget.
    case overBudget(estimatedSteps: Double, budget: Int, advice: String)
    /// A body ended a step inside a plane or another sphere, beyond rounding, with no impact to
    /// resolve it: the run stops rather than output a body on the wrong side.
    case contactLost(time: Double, body: String, collider: String, depth: Double)

    public var description: String {
        switch self {
        case let .stepSizeUnderflow(time, step):
            return "the step size underflowed at t = \(time) s (h = \(step) s): the tolerance cannot be met; loosen it."
        case let .unstable(time, reason, timeStep, limit, method):
            let advice =
                limit > 0
                ? "the largest stable step for \(method) on this scene is about \(limit) s"
                : "no stable step is known for \(method) on this scene; try a smaller step or tolerance, or another integrator"
            return "the simulation is unstable at t = \(time) s (\(reason)) with a step of \(timeStep) s: \(advice)."
        case let .tooManyEvents(time, limit):
            return "more than \(limit) collision events by t = \(time) s; raise the scene's rest velocity "
                + "so bounces end in contact sooner."
        case let .tooManySteps(time, limit):
            return
                "more than \(limit) steps by t = \(time) s; use a larger step or a looser tolerance, or raise the step budget."
        case let .contactLost(time, body, collider, depth):
            return "body '\(body)' is \(depth) inside \(collider) at t = \(time) s, which no impact resolved; "
                + "the run stops rather than output it (a defect: please report the scene)."
        case let .overBudget(estimate, budget, advice):
            return "this run needs about \(estimate.wholeNumberText(.up)) steps, more than its budget of \(budget): "
                + "\(advice), or raise the budget."
        }
    }
}

extension SimulationError {
    /// Body `body` of `scene` left `depth` inside `collider` at `time`, with nothing to resolve it.
    static func contactLost(
        time: Double, body: Int, collider: Collisions.Collider, depth: Double, in scene: PhysicsScene
    ) -> SimulationError {
        let name: String
        switch collider {
        case .plane(let p): name = "plane '\(scene.planes[p].name)'"
        case .body(let o): name = "body '\(scene.bodies[o].name)'"
        }
        return .contactLost(time: time, body: scene.bodies[body].name, collider: name, depth: depth)
    }
}
