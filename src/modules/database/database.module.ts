import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Config, CONFIG } from '../../config';
import { dataSourceOptions } from './data-source';

/**
 * The connection only. Each feature module registers its own entities (TypeOrmModule.forFeature), so a
 * class can inject only the tables of its module; the data source still knows every entity (ENTITIES,
 * in data-source.ts) for migrations.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forRootAsync({ inject: [CONFIG], useFactory: (c: Config) => dataSourceOptions(c.databaseUrl) })],
})
export class DatabaseModule {}
