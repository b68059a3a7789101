import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ProblemDto } from '../modules/common/format.dto';

const API_VERSION = '1.0.0';

/** The OpenAPI document, generated from the controllers' decorators (committed as openapi/openapi.json). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Fallow')
    .setDescription(
      'Scheduling-as-a-service for ephemeral data-centre capacity. Farmers post clusters and utilisation forecasts, ' +
        'customers post job batches and solves; plans are fallow.plan/v1 documents. Every request needs ' +
        '`Authorization: Bearer <API key>`. Errors are application/problem+json with every problem\'s JSON path.',
    )
    .setVersion(API_VERSION)
    .addBearerAuth()
    .build();
  return SwaggerModule.createDocument(app, config, { extraModels: [ProblemDto], operationIdFactory: (_c, method) => method });
}
