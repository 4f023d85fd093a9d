package com.statefulcvm.delegates.scale;

import com.statefulcvm.delegates.rollout.RequireChoice;
import org.springframework.stereotype.Component;

/** The halted scale's gateway only knows retry (the slot again) and stop (the scale ends, the slots done so far count). */
@Component("requireScaleHaltDecision")
public class RequireScaleHaltDecision extends RequireChoice {

    public RequireScaleHaltDecision() {
        super("retry", "stop");
    }
}
