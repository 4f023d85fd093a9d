package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * The Phala client behind {@link PhalaCircuit}: each call asks the circuit first (an open one refuses at once, nothing
 * is sent) and tells it how the call ended. The client's own retries happen inside one call; the circuit sees only
 * their end. Every method of the interface, present and future, goes through the same door.
 */
public final class CircuitBreakingClient {

    private CircuitBreakingClient() {
    }

    public static PhalaCloudClient wrap(PhalaCloudClient client, PhalaCircuit circuit) {
        return (PhalaCloudClient) Proxy.newProxyInstance(PhalaCloudClient.class.getClassLoader(),
                new Class<?>[] {PhalaCloudClient.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return objectMethod(proxy, client, method, args);
                    }
                    circuit.beforeCall(method.getName());
                    Object answer;
                    try {
                        answer = method.invoke(client, args);
                    } catch (InvocationTargetException e) {
                        if (e.getCause() instanceof PhalaApiException api) {
                            circuit.failed(api);
                        }
                        throw e.getCause();
                    }
                    circuit.answered();
                    return answer;
                });
    }

    private static Object objectMethod(Object proxy, PhalaCloudClient client, Method method, Object[] args) throws Exception {
        return switch (method.getName()) {
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "toString" -> "circuit-breaking " + client;
            default -> method.invoke(client, args);
        };
    }
}
