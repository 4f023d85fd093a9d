package com.statefulcvm.web.engine;

import com.statefulcvm.web.security.EngineCallRefused;
import jakarta.ws.rs.core.Response;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.variable.serializer.TypedValueSerializer;
import org.camunda.bpm.engine.impl.variable.serializer.ValueFields;
import org.camunda.bpm.engine.runtime.DeserializationTypeValidator;
import org.camunda.bpm.engine.variable.impl.value.UntypedValueImpl;
import org.camunda.bpm.engine.variable.type.ValueType;
import org.camunda.bpm.engine.variable.value.SerializableValue;
import org.camunda.bpm.engine.variable.value.TypedValue;

/**
 * An Object variable sent in its serialized form (the engine's REST API, Tasklist's) names its Java type, and the
 * engine stores it as it is: only reading it back deserializes it, and a type outside the engine's allow-list
 * ({@code deserializationTypeValidationEnabled}, application.yaml) then failed with a 500 on every read. Such a value
 * is refused when it is written, with 400 naming the type. Not a serializer: the engine asks every serializer placed
 * before its own whether it handles a value, and this one answers no for every value it does not refuse.
 */
final class ObjectTypeAllowList implements TypedValueSerializer<TypedValue> {

    private final ProcessEngineConfigurationImpl configuration;

    ObjectTypeAllowList(ProcessEngineConfigurationImpl configuration) {
        this.configuration = configuration;
    }

    @Override
    public boolean canHandle(TypedValue value) {
        if (value instanceof SerializableValue serialized && !serialized.isDeserialized() && configuration.isDeserializationTypeValidationEnabled()
                && value instanceof org.camunda.bpm.engine.variable.value.ObjectValue object && object.getObjectTypeName() != null) {
            DeserializationTypeValidator validator = configuration.getDeserializationTypeValidator();
            for (String type : object.getObjectTypeName().split("[<>,\\s\\[\\]]+")) {
                if (!type.isBlank() && validator != null && !validator.validate(type)) {
                    throw new EngineCallRefused(Response.Status.BAD_REQUEST, "an Object variable of type '" + object.getObjectTypeName()
                            + "' is refused: " + type + " is not a type this engine deserializes (its allow-list, "
                            + "deserializationAllowedPackages and deserializationAllowedClasses)");
                }
            }
        }
        return false;
    }

    @Override
    public String getName() {
        return "orchestrator-object-type-allow-list";
    }

    @Override
    public ValueType getType() {
        return ValueType.OBJECT;
    }

    @Override
    public void writeValue(TypedValue value, ValueFields valueFields) {
        throw new UnsupportedOperationException("handles no value");
    }

    @Override
    public TypedValue readValue(ValueFields valueFields, boolean deserializeValue, boolean isTransient) {
        throw new UnsupportedOperationException("handles no value");
    }

    @Override
    public TypedValue convertToTypedValue(UntypedValueImpl untypedValue) {
        throw new UnsupportedOperationException("handles no value");
    }

    @Override
    public String getSerializationDataformat() {
        return null;
    }

    @Override
    public boolean isMutableValue(TypedValue typedValue) {
        return false;
    }
}
