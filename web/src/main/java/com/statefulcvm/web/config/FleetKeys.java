package com.statefulcvm.web.config;

import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.CommandLinePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds keys under a replica set that no field binds. Spring Boot's own unknown-field check does not look inside
 * list elements, and a misspelt policy key (max-unavailabel) would otherwise fall back to its default unnoticed.
 * Also refuses secrets in the fleet file ({@link #secrets}).
 */
final class FleetKeys {

    private static final Pattern SET_KEY = Pattern.compile("^orchestrator\\.fleet\\.replica-sets\\[(\\d+)]\\.(.+)$");
    private static final String FLEET_PREFIX = "orchestrator.fleet.";
    /** The last part of a key that names a secret, compared without '-' and '_'; "...-file" keys name a file, not a secret. */
    private static final Pattern SECRET = Pattern.compile("(apikey|privatekey|secret|secretkey|password|passwd|token|credential|credentials)s?$");
    private static final Pattern PLACEHOLDER_ONLY = Pattern.compile("^\\$\\{[^}]*}$");
    /** Where secrets belong: never looked at. */
    private static final Set<String> SECRET_SOURCES = Set.of(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, CommandLinePropertySource.COMMAND_LINE_PROPERTY_SOURCE_NAME);
    private static final Set<String> KNOWN = paths(ReplicaSetSpec.class, "");
    /** Known keys that bind a map (scaling.peer-urls): any key below them is an entry, not a typo. */
    private static final Set<String> MAPS = maps(ReplicaSetSpec.class, "");

    private FleetKeys() {
    }

    static List<String> unknown(Environment environment, FleetDefinition fleet) {
        Set<String> problems = new LinkedHashSet<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            iterable.stream().map(ConfigurationPropertyName::toString).forEach(name -> {
                Matcher m = SET_KEY.matcher(name);
                // list values inside a set (attestation.kms-key-ids[0]) are bound by their list's key
                if (m.matches() && !known(m.group(2).replaceAll("\\[\\d+]", ""))) {
                    int index = Integer.parseInt(m.group(1));
                    String setName = index < fleet.getReplicaSets().size() ? fleet.getReplicaSets().get(index).getName() : null;
                    problems.add("replicaSets[" + index + "]" + (setName == null ? "" : " (" + setName + ")") + ": "
                            + m.group(2) + ": unknown key; known keys: " + siblings(m.group(2).replaceAll("\\[\\d+]", "")));
                }
            });
        }
        return new ArrayList<>(problems);
    }

    /**
     * Secrets written into the file (or other property source) that defines the fleet: an API key there would end up
     * in version control beside the fleet. Any key whose name looks like a secret (api-key, token, password, ...) with
     * a literal value is refused, wherever it sits in that file (inside a set, under orchestrator.fleet, or
     * orchestrator.phala.api-key next to the fleet); a placeholder such as {@code ${PHALA_API_KEY}} is not a secret. The
     * environment, system properties and the command line are where secrets belong and are not looked at. The value
     * is never part of the message.
     */
    static List<String> secrets(Environment environment) {
        Set<String> problems = new LinkedHashSet<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)
                    || source.getUnderlyingSource() instanceof PropertySource<?> ps && SECRET_SOURCES.contains(ps.getName())) {
                continue;
            }
            List<ConfigurationPropertyName> names = iterable.stream().toList();
            if (names.stream().noneMatch(n -> n.toString().startsWith(FLEET_PREFIX))) {
                continue;
            }
            for (ConfigurationPropertyName name : names) {
                String last = name.getLastElement(ConfigurationPropertyName.Form.UNIFORM);
                String normalized = last.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
                Matcher inSet = SET_KEY.matcher(name.toString());
                if (normalized.endsWith("file") || !SECRET.matcher(normalized).find()
                        || inSet.matches() && KNOWN.contains(inSet.group(2).replaceAll("\\[\\d+]", ""))) {
                    continue;
                }
                var property = source.getConfigurationProperty(name);
                Object raw = property == null ? null : property.getValue();
                String value = raw == null ? "" : raw.toString().strip();
                if (value.isEmpty() || PLACEHOLDER_ONLY.matcher(value).matches()) {
                    continue;
                }
                problems.add(where(name.toString(), source) + ": a secret does not belong in the fleet file; the Phala Cloud "
                        + "API key comes from the environment (PHALA_API_KEY) or orchestrator.phala.api-key-file "
                        + "(docs/configuration.md, Security)");
            }
        }
        return new ArrayList<>(problems);
    }

    private static String where(String name, ConfigurationPropertySource source) {
        Matcher m = SET_KEY.matcher(name);
        if (!m.matches()) {
            return name;
        }
        var setName = source.getConfigurationProperty(
                ConfigurationPropertyName.of("orchestrator.fleet.replica-sets[" + m.group(1) + "].name"));
        return "replicaSets[" + m.group(1) + "]" + (setName == null ? "" : " (" + setName.getValue() + ")") + ": " + m.group(2);
    }

    /** Every key a replica set binds, kebab-case, nested ones dotted (update-policy.max-surge). */
    static Set<String> knownKeys() {
        return java.util.Collections.unmodifiableSet(KNOWN);
    }

    private static Set<String> siblings(String key) {
        int dot = key.lastIndexOf('.');
        String parent = dot < 0 ? "" : key.substring(0, dot + 1);
        Set<String> names = new TreeSet<>();
        for (String known : KNOWN) {
            if (known.startsWith(parent) && known.indexOf('.', parent.length()) < 0) {
                names.add(known.substring(parent.length()));
            }
        }
        return names;
    }

    private static boolean known(String key) {
        return KNOWN.contains(key) || MAPS.stream().anyMatch(map -> key.startsWith(map + "."));
    }

    /** The bindable paths of a bean class whose type is a map, nested classes included. */
    private static Set<String> maps(Class<?> type, String prefix) {
        Set<String> result = new TreeSet<>();
        for (PropertyDescriptor p : BeanUtils.getPropertyDescriptors(type)) {
            if (p.getWriteMethod() == null) {
                continue;
            }
            String name = prefix + kebab(p.getName());
            if (java.util.Map.class.isAssignableFrom(p.getPropertyType())) {
                result.add(name);
            } else if (bean(p) != null) {
                result.addAll(maps(bean(p), name + "."));
            }
        }
        return result;
    }

    /** Every bindable path of a bean class in Spring Boot's canonical (kebab-case) form, nested classes included. */
    private static Set<String> paths(Class<?> type, String prefix) {
        Set<String> result = new TreeSet<>();
        for (PropertyDescriptor p : BeanUtils.getPropertyDescriptors(type)) {
            if (p.getWriteMethod() == null) {
                continue;
            }
            String name = prefix + kebab(p.getName());
            result.add(name);
            if (bean(p) != null) {
                result.addAll(paths(bean(p), name + "."));
            }
        }
        return result;
    }

    /**
     * The class of our own whose fields a property binds: the property's type, or the element type of a list of them
     * (a set's {@code instances}, whose keys arrive as {@code instances[0].node-id}); null for anything else.
     */
    private static Class<?> bean(PropertyDescriptor p) {
        Class<?> type = p.getPropertyType();
        if (java.util.List.class.isAssignableFrom(type) && p.getReadMethod() != null
                && p.getReadMethod().getGenericReturnType() instanceof java.lang.reflect.ParameterizedType list
                && list.getActualTypeArguments()[0] instanceof Class<?> element) {
            type = element;
        }
        return type.getName().startsWith("com.statefulcvm.") && !type.isEnum() ? type : null;
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
    }
}
