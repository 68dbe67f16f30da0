/// Every threshold and iteration cap of the time-stepped contact pipeline (`MoreauJeanScene`),
/// each with what it bounds. Lengths are relative to a contact's scale (the larger of 1 and the
/// sum of its radii and the plane's offset), speeds are in the scene's units per second.
struct ContactTolerances {
    /// A gap up to this (relative) counts as touching: the contact's impulse may push, and an
    /// approach there is an impact. Rounding of positions the size of the scale.
    var touching = 1e-9
    /// The overlap (relative) the position projection closes every contact to at the end of a step.
    var overlap = 1e-10
    /// The deepest overlap (relative) a step may end with, where the projection's sweeps ran out
    /// before `overlap`: deeper, the run stops (`SimulationError.contactLost`). No sample is
    /// further inside a plane or another sphere.
    var deepestOverlap = 1e-8
    /// The velocity solve stops once no sweep changes a contact's relative velocity by more than
    /// this (units/s): the speed a resting contact may drift at before the projection closes it
    /// (1e-11 units in a step of 1 ms).
    var velocityResidual = 1e-8
    /// Sweeps of the velocity solve at most, per step; a pile of n rows needs about n² without
    /// warm starting, a few with it.
    var velocitySweeps = 200
    /// The kinetic energy (relative) the velocity solve may seem to add, within its residual; more,
    /// and its bounces are taken back (`MoreauJeanScene`).
    var energyGain = 1e-9
    /// Sweeps of the position projection at most, per step; past them the run stops
    /// (`SimulationError.contactLost`) rather than output a body inside another.
    var projectionSweeps = 2_000
    /// Rounds of the position projection at most, per step, each looking for overlaps anew (a
    /// push out of one contact can make another).
    var projectionRounds = 8
    /// Rounds of the velocity stage at most, per step: the contacts are gathered again, within
    /// reach of the speeds the solve gave, while a body leaves the solve faster than its reach
    /// assumed (a ball hit across a pile).
    var velocityRounds = 4
    /// How long (s) every body of an island must stay slower than the scene's rest velocity
    /// before the island sleeps: long enough for a bounce slower than the rest velocity to turn.
    var timeToSleep = 0.5
    /// The broad phase's reach beyond what the bodies' speeds cover in a step (relative): pairs
    /// this close are contacts of the step even when they move apart.
    var margin = 1e-6
    /// How far inside a plane (relative) a body may start: rounding.
    var startInside = 1e-12

    static let standard = ContactTolerances()
}
