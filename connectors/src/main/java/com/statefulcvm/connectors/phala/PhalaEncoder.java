package com.statefulcvm.connectors.phala;

import feign.RequestTemplate;
import feign.codec.Encoder;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

/**
 * Bodies as the SDK sends them: a String (the compose YAML of {@code updateDockerCompose}) as its own UTF-8 text,
 * never JSON-quoted; anything else as JSON.
 */
final class PhalaEncoder implements Encoder {

    private final Encoder json;

    PhalaEncoder(Encoder json) {
        this.json = json;
    }

    @Override
    public void encode(Object object, Type bodyType, RequestTemplate template) {
        if (object instanceof String text) {
            template.body(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            return;
        }
        json.encode(object, bodyType, template);
    }
}
