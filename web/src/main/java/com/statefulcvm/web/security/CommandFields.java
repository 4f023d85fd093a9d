package com.statefulcvm.web.security;

import java.lang.reflect.Field;

/**
 * Reads the arguments an engine command was created with (the task it completes, the variables it sets). The engine
 * keeps them in protected fields of its command classes and offers no getter; a field that cannot be read refuses
 * the call rather than let it through unchecked.
 */
public final class CommandFields {

    private CommandFields() {
    }

    public static Object read(Object command, String name) {
        for (Class<?> type = command.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field field = type.getDeclaredField(name);
                field.setAccessible(true);
                return field.get(command);
            } catch (NoSuchFieldException notHere) {
                // declared higher up
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new IllegalStateException("cannot check " + command.getClass().getSimpleName() + ": field '" + name
                        + "' is unreadable (" + e + "); refused", e);
            }
        }
        throw new IllegalStateException("cannot check " + command.getClass().getSimpleName() + ": it has no field '" + name
                + "' (another engine version?); refused");
    }
}
