package com.statefulcvm.web.config;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** The health monitors' deployment-wide settings ({@code orchestrator.healing}). */
@Configuration
@EnableConfigurationProperties(HealingProperties.class)
public class HealingConfiguration {
}
