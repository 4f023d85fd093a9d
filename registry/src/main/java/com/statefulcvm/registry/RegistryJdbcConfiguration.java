package com.statefulcvm.registry;

import org.springframework.context.annotation.Configuration;
import org.springframework.data.jdbc.core.convert.JdbcCustomConversions;
import org.springframework.data.jdbc.core.mapping.JdbcMappingContext;
import org.springframework.data.jdbc.repository.config.AbstractJdbcConfiguration;
import org.springframework.data.jdbc.repository.config.EnableJdbcRepositories;
import org.springframework.data.relational.RelationalManagedTypes;
import org.springframework.data.relational.core.mapping.NamingStrategy;

import java.util.Optional;

/**
 * Spring Data JDBC quotes identifiers by default; H2 folds unquoted DDL names to upper case, so quoted lower-case
 * names would not be found. Unquoted names work the same on H2 and PostgreSQL.
 */
@Configuration
@EnableJdbcRepositories(basePackageClasses = RegistryJdbcConfiguration.class)
class RegistryJdbcConfiguration extends AbstractJdbcConfiguration {

    @Override
    public JdbcMappingContext jdbcMappingContext(Optional<NamingStrategy> namingStrategy,
                                                 JdbcCustomConversions customConversions,
                                                 RelationalManagedTypes jdbcManagedTypes) {
        JdbcMappingContext context = super.jdbcMappingContext(namingStrategy, customConversions, jdbcManagedTypes);
        context.setForceQuote(false);
        return context;
    }
}
