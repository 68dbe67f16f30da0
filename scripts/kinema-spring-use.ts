// Type-checked against Sources/KinemaCLI/Resources/kinema-spring.d.ts by scripts/players.sh:
// a page's use of the player, as the README shows it.
import { RetargetableSpring, RetargetableResponses } from './kinema-spring';
declare const responses: RetargetableResponses;
const card = new RetargetableSpring(document.body, responses, { property: 'translate', value: 0 });
card.retarget(300);
card.release(-800, 120);
card.set(40);
const shown: number = card.value() + card.velocity(performance.now()) + card.animationCount + card.target;
const step: number = responses.step.timingFunctions[0][3] + responses.impulse.maxError + responses.reduced.duration;
