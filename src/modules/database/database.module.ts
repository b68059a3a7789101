import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Config, CONFIG } from '../../config';
import { dataSourceOptions } from './data-source';
import { ENTITIES } from './entities';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({ inject: [CONFIG], useFactory: (c: Config) => dataSourceOptions(c.databaseUrl) }),
    TypeOrmModule.forFeature(ENTITIES),
  ],
  exports: [TypeOrmModule],
})
export class DatabaseModule {}
