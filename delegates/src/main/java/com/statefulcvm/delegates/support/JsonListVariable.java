package com.statefulcvm.delegates.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.camunda.bpm.engine.delegate.VariableScope;
import org.camunda.bpm.engine.variable.Variables;
import org.camunda.bpm.engine.variable.value.ObjectValue;
import org.camunda.bpm.engine.variable.value.TypedValue;

/**
 * A record a procedure keeps as a JSON list in one variable of its own scope (who decided what, who paused it and
 * why): appended to, never rewritten. JSON in a byte array, not a string variable: a long procedure's list outgrows
 * the 4,000 characters of a string variable, and Cockpit shows it as JSON.
 */
public final class JsonListVariable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonListVariable() {
    }

    /** A new entry to fill and {@link #append}. */
    public static ObjectNode entry() {
        return JSON.createObjectNode();
    }

    /** Adds {@code entry} at the end of the list in {@code scope}'s own variable {@code name}. */
    public static void append(VariableScope scope, String name, ObjectNode entry) {
        ArrayNode list = read(scope, name);
        list.add(entry);
        ObjectValue value = Variables.serializedObjectValue(list.toString())
                .serializationDataFormat(Variables.SerializationDataFormats.JSON)
                .objectTypeName("java.util.ArrayList")
                .create();
        scope.setVariableLocal(name, value);
    }

    /** The list as it is; empty when absent or unreadable (a record must not refuse what it records). */
    public static ArrayNode read(VariableScope scope, String name) {
        TypedValue typed = scope.getVariableLocalTyped(name, false);
        if (typed instanceof ObjectValue object && object.getValueSerialized() != null) {
            try {
                if (JSON.readTree(object.getValueSerialized()) instanceof ArrayNode array) {
                    return array;
                }
            } catch (JsonProcessingException unreadable) {
                // start a new list
            }
        }
        return JSON.createArrayNode();
    }
}
