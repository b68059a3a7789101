import { readFileSync } from 'node:fs';
import path from 'node:path';
import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject, ReferenceObject, RequestBodyObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Config } from '../config';
import { ProblemDto } from '../modules/common/format.dto';

/** The package's name, version and licence: the document's version is the code's (dist/src/api -> the checkout's package.json). */
const PACKAGE = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string; license: string };

/**
 * The OpenAPI document, generated from the controllers' decorators (committed as openapi/openapi.json, built
 * with the default configuration). Its one server is `publicUrl` (FALLOW_PUBLIC_URL, else
 * http://localhost:PORT), so a client generated from it has a base URL; the API serves its own document with
 * the URL it was configured with.
 */
export function buildOpenApiDocument(app: INestApplication, { publicUrl }: Pick<Config, 'publicUrl'>): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Fallow')
    .setDescription(
      'Scheduling-as-a-service for ephemeral data-centre capacity. Farmers post clusters and utilisation forecasts, ' +
        'customers post job batches and solves; plans are fallow.plan/v1 documents. Every request needs ' +
        '`Authorization: Bearer <API key>`. Errors are application/problem+json with every problem\'s JSON path.',
    )
    .setVersion(PACKAGE.version)
    .addServer(publicUrl, 'this Fallow API (FALLOW_PUBLIC_URL; the committed document: a local one on the default PORT)')
    .addSecurityRequirements('bearer')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'an opaque API key from POST /v1/tenants/{id}/keys, or the operator key' })
    .build();
  const doc = SwaggerModule.createDocument(app, config, { extraModels: [ProblemDto], operationIdFactory: (_c, method) => method });
  for (const scheme of Object.values(doc.components?.securitySchemes ?? {})) if ('bearerFormat' in scheme) delete scheme.bearerFormat; // Nest adds "JWT"
  doc.info.license = { name: PACKAGE.license }; // private: no licence is granted (DocumentBuilder.setLicense would add an empty url)
  defaultedBodiesAsRequestBodies(doc);
  return doc;
}

/**
 * A request body whose schema has defaulted fields moves from components.schemas to components.requestBodies
 * (when nothing else refers to it). OpenAPI says a field with a default is optional unless listed as
 * required; openapi-typescript with its default options (defaultNonNullable) makes such fields required
 * everywhere except in request bodies and parameters, so a client generated the usual way would demand
 * every defaulted field of `POST /v1/solves`. Under requestBodies the fields stay optional, and the
 * defaults stay in the document for Swagger UI and other generators.
 */
function defaultedBodiesAsRequestBodies(doc: OpenAPIObject): void {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const ref = (name: string) => `"#/components/schemas/${name}"`;
  const bodyRef = (op: OperationObject): string | undefined => {
    const body = op.requestBody as RequestBodyObject | undefined;
    const r = (body?.content?.['application/json']?.schema as ReferenceObject | undefined)?.$ref;
    return r?.startsWith('#/components/schemas/') ? r.slice('#/components/schemas/'.length) : undefined;
  };
  const operations = Object.values(doc.paths).flatMap((item) => Object.values(item).filter((op): op is OperationObject => typeof op === 'object' && op !== null && 'responses' in op));
  const candidates = new Set(operations.map(bodyRef).filter((n): n is string => !!n && Object.values(schemas[n]?.properties ?? {}).some((p) => 'default' in p)));
  // Referred to anywhere but as a request body (a response, a parameter, another schema): left where it is.
  const elsewhere = JSON.stringify([operations.map(({ requestBody: _, ...rest }) => rest), Object.entries(schemas).filter(([n]) => !candidates.has(n))]);
  doc.components!.requestBodies ??= {};
  for (const name of candidates) {
    if (elsewhere.includes(ref(name))) continue;
    let required = false;
    for (const op of operations)
      if (bodyRef(op) === name) {
        required ||= (op.requestBody as RequestBodyObject).required === true;
        op.requestBody = { $ref: `#/components/requestBodies/${name}` };
      }
    doc.components!.requestBodies[name] = { required, content: { 'application/json': { schema: schemas[name] } } };
    delete schemas[name];
  }
}
