package com.statefulcvm.web.config;

import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds keys under a replica set that no field binds. Spring Boot's own unknown-field check does not look inside
 * list elements, and a misspelt policy key (max-unavailabel) would otherwise fall back to its default unnoticed.
 */
final class FleetKeys {

    private static final Pattern SET_KEY = Pattern.compile("^orchestrator\\.fleet\\.replica-sets\\[(\\d+)]\\.(.+)$");
    private static final Set<String> KNOWN = paths(ReplicaSetSpec.class, "");

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
                if (m.matches() && !KNOWN.contains(m.group(2).replaceAll("\\[\\d+]", ""))) {
                    int index = Integer.parseInt(m.group(1));
                    String setName = index < fleet.getReplicaSets().size() ? fleet.getReplicaSets().get(index).getName() : null;
                    problems.add("replicaSets[" + index + "]" + (setName == null ? "" : " (" + setName + ")") + ": "
                            + m.group(2) + ": unknown key; known keys: " + siblings(m.group(2)));
                }
            });
        }
        return new ArrayList<>(problems);
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

    /** Every bindable path of a bean class in Spring Boot's canonical (kebab-case) form, nested classes included. */
    private static Set<String> paths(Class<?> type, String prefix) {
        Set<String> result = new TreeSet<>();
        for (PropertyDescriptor p : BeanUtils.getPropertyDescriptors(type)) {
            if (p.getWriteMethod() == null) {
                continue;
            }
            String name = prefix + kebab(p.getName());
            result.add(name);
            Class<?> propertyType = p.getPropertyType();
            if (propertyType.getName().startsWith("com.statefulcvm.") && !propertyType.isEnum()) {
                result.addAll(paths(propertyType, name + "."));
            }
        }
        return result;
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
    }
}
