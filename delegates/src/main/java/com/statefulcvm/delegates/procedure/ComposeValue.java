package com.statefulcvm.delegates.procedure;

import org.camunda.bpm.engine.variable.Variables;
import org.camunda.bpm.engine.variable.value.TypedValue;

/**
 * How a compose is kept as a process variable. Camunda stores a String variable in 4000 characters, and real composes
 * (inline configuration, several services) are longer; a JSON value lives in the byte-array table without that limit,
 * still reads back as a {@code String} and still shows as text in Cockpit.
 */
public final class ComposeValue {

    private ComposeValue() {
    }

    public static TypedValue of(String compose) {
        if (compose == null) {
            return Variables.untypedNullValue();
        }
        return Variables.objectValue(compose).serializationDataFormat(Variables.SerializationDataFormats.JSON).create();
    }
}
