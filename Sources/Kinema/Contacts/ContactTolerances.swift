/// Every threshold and iteration cap of the contact code, each with what it bounds: the
/// time-stepped pipeline (`MoreauJeanScene`) and the contacts located on a step's dense output
/// or by the event queue (`SceneStepper`, `ImpactSearch`, `Collisions`, `EventDrivenScene`).
/// Lengths are relative to a contact's scale (the larger of 1 and the sum of its radii and the
/// plane's offset), speeds are in the scene's units per second.
enum ContactTolerances {
    // MARK: Both regimes

    /// A gap up to this (relative) counts as touching: the contact's impulse may push, and an
    /// approach there is an impact. Rounding of positions the size of the scale.
    static let touching = 1e-9
    /// A gap, speed or acceleration within this (relative) of 0 is 0: rounding of the values it
    /// is computed from (an impact located by its root is within 1e-16 of touching).
    static let rounding = 1e-12
    /// A time within this fraction of a run's duration of its end is the end.
    static let timeRounding = 1e-12
    /// How long (s) every body of an island must stay calm before the island sleeps (slower than
    /// the scene's rest velocity under `MoreauJeanScene`, still under the stepper): long enough for
    /// a bounce slower than the rest velocity to turn.
    static let timeToSleep = 0.5

    // MARK: Time stepping (`MoreauJeanScene`)

    /// The overlap (relative) the position projection closes every contact to at the end of a step.
    static let overlap = 1e-10
    /// The deepest overlap (relative) a step may end with, where the projection's sweeps ran out
    /// before `overlap`: deeper, the run stops (`SimulationError.contactLost`). No sample is
    /// further inside a plane or another sphere.
    static let deepestOverlap = 1e-8
    /// The velocity solve stops once no sweep changes a contact's relative velocity by more than
    /// this (units/s): the speed a resting contact may drift at before the projection closes it
    /// (1e-11 units in a step of 1 ms).
    static let velocityResidual = 1e-8
    /// Sweeps of the velocity solve at most, per step; a pile of n rows needs about n² without
    /// warm starting, a few with it.
    static let velocitySweeps = 200
    /// The kinetic energy (relative) the velocity solve may seem to add, within its residual; more,
    /// and its bounces are taken back (`MoreauJeanScene`).
    static let energyGain = 1e-9
    /// Gauss–Seidel sweeps of the resting contact forces at most, adding friction on planes to
    /// the exact normal forces, or standing in for them where that solve has none.
    static let frictionSweeps = 1_000
    /// Sweeps of the position projection at most, per step; past them the run stops
    /// (`SimulationError.contactLost`) rather than output a body inside another.
    static let projectionSweeps = 100
    /// Rounds of the position projection at most, per step, each looking for overlaps anew (a
    /// push out of one contact can make another); the same for the stepper's (`Collisions.closeGaps`).
    static let projectionRounds = 8
    /// Rounds of the velocity stage at most, per step: the contacts are gathered again, within
    /// reach of the speeds the solve gave, while a body leaves the solve faster than its reach
    /// assumed (a ball hit across a pile).
    static let velocityRounds = 4
    /// The broad phase's reach beyond what the bodies' speeds cover in a step (relative): pairs
    /// this close are contacts of the step even when they move apart.
    static let margin = 1e-6
    /// The gap residual (relative) to which overlaps closed together (`ActiveSetSolver`) are
    /// solved: a tenth of `overlap`.
    static let togetherResidual = 1e-11
    /// Iterations at most of the overlaps closed together, per contact, and beyond that: each one
    /// product with J W Jᵀ.
    static let togetherIterationsPerContact = 10, togetherIterations = 100
    /// Their projected-gradient step, over Gershgorin's bound on ‖J W Jᵀ‖ (below 2, which
    /// MPRGP's convergence needs).
    static let expansionStep = 1.9
    /// A time within this fraction of a step of the next sample is that sample's time.
    static let stepRounding = 1e-9

    // MARK: Contacts located in time (the stepper and the event queue)

    /// A resting contact's overlap (relative) at a step's end up to which it is the step's drift,
    /// closed after the step; deeper, the contact is lost and the run stops.
    static let drift = 1e-4
    /// A sphere pair at a step's end is closing where it approaches faster than this (units/s).
    static let closingSpeed = 1e-9
    /// The broad phase's reach: a body's radius plus the distance its speed covers in a step,
    /// times this (half again: speeds change within the step); and how near a plane a body
    /// leaving it, at its end's rate, may have met it inside the step (`Collisions.dip`).
    static let reachFactor = 1.5
    /// How far (a fraction of the distance moved in the step) a pair apart at both ends of a step
    /// may have come within touching on the path between them, to be searched for a dip.
    static let approachSlack = 0.1
    /// A body slower than this (units/s), its acceleration below this times (1 + g), is still:
    /// the contact solve leaves a residue of about 1e-12 of gravity. Held this slow for
    /// `timeToSleep`, an island sleeps under the stepper (`SleepingIslands`): pinned, each body
    /// stays within this times the time left of where it would have crept to.
    static let stillness = 1e-9
    /// The least rest speed (units/s), for a scene whose rest velocity is 0: slower than this,
    /// a bounce is rounding.
    static let leastRestSpeed = 1e-9
    /// The speed along a plane below which a resting body counts as not sliding (units/s): its
    /// friction then holds it rather than opposing a direction of motion rounding decides.
    static let stickingSpeed = 1e-6
    /// The contact force solve's residual (relative, of accelerations): its conjugate gradients
    /// stop below it.
    static let forceResidual = 1e-14
    /// Rounds of the contact force solve beyond one per contact: each lets a contact go or holds it.
    static let forceRounds = 8
    /// Conjugate-gradient iterations beyond twice the contacts, per round.
    static let gradientIterations = 10
    /// The impulses passed on from one impact before the rest are made perfectly inelastic.
    static let passedImpulses = 1_000
    /// Illinois iterations at most for a gap's root (each halves the bracket at least every third).
    static let rootIterations = 200
    /// Golden-section steps at most for the least gap inside a step.
    static let sectionSteps = 80
    /// Samples, then golden-section steps, for a pair's closest approach on its path in a step.
    static let approachSamples = 16, approachSections = 40
}
