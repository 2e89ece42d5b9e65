import { type CfnResource, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  ApiMapping,
  DomainName,
  type CfnRoute,
  type CfnStage,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { EventType } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { join } from 'node:path';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { MEDIA_FOLDERS } from '../lib/platform/media-keys';
import { ApiFront, CLIENT_ADDRESS_HEADER } from './api-front';
import { QR_ENCODER_FILE, buildQrEncoder } from './checkin-page-assets';
import { MediaDelivery } from './media-delivery';
import { type ReservedConcurrencyOption, reservedConcurrencyOf } from './function-concurrency';
import {
  FUNCTION_PERMISSIONS,
  PHOTO_LINK_HANDLER,
  RESERVATION_SWEEP_MINUTES,
  HR_EXPORT_CREATE_HANDLER,
  type SecretName,
} from './function-permissions';
import {
  ALL_HANDLERS,
  EVENT_DISPATCH_HANDLER,
  HR_EXPORT_BUILD_HANDLER,
  PHOTO_INGEST_HANDLER,
  PHOTO_NOTICE_HANDLER,
  REFERENCE_FACE_HANDLER,
  REPLAYABLE_HANDLERS,
  RESERVATION_SWEEP_HANDLER,
  RETENTION_PLANNER_HANDLER,
  RETENTION_WORKER_HANDLER,
  WEBHOOK_DELIVERY_HANDLER,
} from '../lib/http/handlers';
import {
  DEFAULT_ROUTE_THROTTLES,
  DEFAULT_STAGE_THROTTLE,
  type Throttle,
  routeThrottleSettings,
} from './route-throttles';
import { LOG_RETENTION, ServiceFunction } from './service-function';
import { serviceTable } from './service-table';
import { type RouteClass, functionClasses, stageRoutes } from './stage-routes';
import { thresholdAlarm } from './threshold-alarm';
import { WebhookDelivery, webhookSealingKey } from './webhook-delivery';
import { PhotoNotices, photoLinkKey } from './photo-notices';
import { ReferenceFaces } from './reference-faces';
import { RetentionFanOut } from './retention-fan-out';
import { HrExportQueue } from './hr-export-queue';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { type AlarmSubscription, AlarmTopic } from './alarm-topic';
import { ASYNC_MAX_EVENT_AGE, ASYNC_RETRY_ATTEMPTS, FailureQueue } from './failure-queue';
import { OperationsDashboard } from './operations-dashboard';
import type { CloudFrontDomain } from './cloudfront-domain';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';

export interface GroupShootStackProps extends StackProps {
  /** PEM public key of the photo URL signing key pair; its private key goes into the PhotoSigningKey secret. */
  photoSigningPublicKeyPem: string;
  /**
   * Steady-state requests per second and burst of the v1 stage: the limit of each route without
   * one of its own, and the ceiling of `routeThrottles`. Default 200/s, burst 400.
   */
  throttle?: Throttle;
  /** Each route's own limit, by class: public, server, webhook, unmatched (404/405). Default DEFAULT_ROUTE_THROTTLES. */
  routeThrottles?: Partial<Record<RouteClass, Throttle>>;
  /**
   * Reserved concurrency of the API's functions per class, checked against the account's quota
   * (default DEFAULT_RESERVED_CONCURRENCY, which assumes a quota of 1,000); false reserves none,
   * for accounts with a small quota (new accounts often have 10).
   */
  reservedConcurrency?: ReservedConcurrencyOption;
  /**
   * CloudFront with AWS WAF in front of the API, off unless given: the ARN of a web ACL of scope
   * CLOUDFRONT (us-east-1), e.g. the output of ApiFrontWebAclStack.
   */
  apiFront?: { webAclArn: string; domain?: CloudFrontDomain };
  /**
   * Domains of yours for the photo CDN and the check-in page (and `apiFront.domain` for the API
   * front), each with its ACM certificate in us-east-1: they get TLS 1.2 at least (TLSv1.2_2021);
   * without one a distribution's default `*.cloudfront.net` name accepts TLS 1.0.
   */
  cdnDomains?: { photoCdn?: CloudFrontDomain; checkinPage?: CloudFrontDomain };
  /** The tenant the deployed check-in page checks in for, unless its link names one (`?tenant=`). */
  checkinTenantSlug?: string;
  /** A custom domain for the API (e.g. api.example.com) with its ACM certificate in the stack's region. */
  apiDomain?: { domainName: string; certificateArn: string };
  /**
   * The From address of photo-ready emails (docs/deployment.md#photo-ready-emails): an SES identity
   * of the account in the stack's region. Unset, no photo-ready email is sent.
   */
  photoNoticeSender?: string;
  /** Who receives the alarms (docs/deployment.md#alarms): an email address or an HTTPS endpoint. Unset, nobody does. */
  alarmSubscription?: AlarmSubscription;
}

/**
 * The whole service in one stack: the single table, the media and check-in page buckets
 * behind CloudFront, the secrets, one Lambda function per function of the route module, the
 * HTTP API (stage v1) whose routes are generated from that module, and the table's stream
 * consumers: webhook delivery through a queue, photo-ready emails and reference faces.
 */
export class GroupShootStack extends Stack {
  readonly functions = new Map<string, LambdaFunction>();
  readonly api: HttpApi;
  /** The CloudFront front of the API, when `apiFront` is set. */
  readonly apiFront?: ApiFront;

  constructor(scope: Construct, id: string, props: GroupShootStackProps) {
    super(scope, id, props);

    const table = serviceTable(this);
    const delivery = new MediaDelivery(this, 'Media', {
      photoSigningPublicKeyPem: props.photoSigningPublicKeyPem,
      photoCdnDomain: props.cdnDomains?.photoCdn,
      checkinPageDomain: props.cdnDomains?.checkinPage,
    });

    const secret = (name: string, description: string) => {
      const created = new Secret(this, name, { description });
      // Stripe issues these keys and the photo key pair is made by the operator: no Lambda can rotate them.
      NagSuppressions.addResourceSuppressions(created, [
        { id: 'AwsSolutions-SMG4', reason: 'Rotated by the operator at Stripe or with a new key pair (see README).' },
      ]);
      return created;
    };
    const secrets: Record<SecretName, Secret> = {
      stripeSecretKey: secret('StripeSecretKey', 'Stripe secret key of the platform account (sk_live_… or sk_test_…)'),
      stripeWebhookSecret: secret(
        'StripeWebhookSecret',
        'Signing secret of the Stripe Connect webhook endpoint (whsec_…)',
      ),
      photoSigningKey: secret('PhotoSigningKey', 'PEM private key whose public key is in the photo CDN key group'),
      webhookSealingKey: webhookSealingKey(this),
      photoLinkKey: photoLinkKey(this),
    };

    const environment = {
      TABLE_NAME: table.tableName,
      MEDIA_BUCKET: delivery.mediaBucket.bucketName,
      POWERTOOLS_SERVICE_NAME: 'groupshoot-api',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      PHOTO_CDN_URL: delivery.photoCdnUrl,
      CLOUDFRONT_KEY_PAIR_ID: delivery.photoSigningKeyId,
      CHECKIN_PAGE_URL: delivery.checkinPageUrl,
    };
    const apiFunctions = functionClasses();
    // The retention planner holds one instance, so that two runs (a manual one, say) never overlap.
    const reserved = reservedConcurrencyOf(
      apiFunctions,
      props.reservedConcurrency,
      new Map([[RETENTION_PLANNER_HANDLER, 1]]),
    );
    // Behind the front, requestContext.http.sourceIp is a CloudFront address; the client's is in this header.
    const apiEnvironment = props.apiFront ? { ...environment, CLIENT_ADDRESS_HEADER } : environment;
    for (const handler of ALL_HANDLERS) {
      const permissions = FUNCTION_PERMISSIONS[handler];
      if (!permissions) throw new Error(`No permissions declared for function ${handler}`);
      const { fn } = new ServiceFunction(this, functionId(handler), {
        handler,
        permissions,
        table,
        mediaBucket: delivery.mediaBucket,
        secrets,
        environment: apiFunctions.has(handler) ? apiEnvironment : environment,
        reservedConcurrentExecutions: reserved.get(handler),
      });
      this.functions.set(handler, fn);
    }
    new Rule(this, 'ReservationSweepSchedule', {
      description: 'Settles reservations that nothing else will end (docs/payments.md, reservation sweep)',
      schedule: Schedule.rate(Duration.minutes(RESERVATION_SWEEP_MINUTES)),
      targets: [new LambdaTarget(this.functions.get(RESERVATION_SWEEP_HANDLER)!, { retryAttempts: 0 })],
    });
    const retention = new RetentionFanOut(this, 'Retention', {
      planner: this.functions.get(RETENTION_PLANNER_HANDLER)!,
      worker: this.functions.get(RETENTION_WORKER_HANDLER)!,
      photoCdn: delivery.photoCdn,
    });
    const hrExports = new HrExportQueue(this, 'HrExports', {
      creator: this.functions.get(HR_EXPORT_CREATE_HANDLER)!,
      builder: this.functions.get(HR_EXPORT_BUILD_HANDLER)!,
    });
    const webhooks = new WebhookDelivery(this, 'Webhooks', {
      table,
      dispatcher: this.functions.get(EVENT_DISPATCH_HANDLER)!,
      worker: this.functions.get(WEBHOOK_DELIVERY_HANDLER)!,
      dispatcherHandler: EVENT_DISPATCH_HANDLER,
    });
    // S3 invokes the ingest function asynchronously: after Lambda's retries the event is kept, for `ops replay`.
    const ingestFailures = new FailureQueue(this, 'IngestFailures', { handler: PHOTO_INGEST_HANDLER });
    this.functions.get(PHOTO_INGEST_HANDLER)!.configureAsyncInvoke({
      onFailure: new SqsDestination(ingestFailures.queue),
      retryAttempts: ASYNC_RETRY_ATTEMPTS,
      maxEventAge: ASYNC_MAX_EVENT_AGE,
    });
    delivery.mediaBucket.addEventNotification(
      EventType.OBJECT_CREATED,
      new LambdaDestination(this.functions.get(PHOTO_INGEST_HANDLER)!),
      { prefix: `${MEDIA_FOLDERS.photos}/` },
    );
    // The notification configuration is applied by CDK's own singleton custom resource.
    const notificationsHandler = this.node.tryFindChild('BucketNotificationsHandler050a0587b7544547bf325f094a3db834');
    if (notificationsHandler) {
      // Its logs too expire like every function's (CDK offers no option for it).
      const logs = new LogGroup(this, 'BucketNotificationsLogs', { retention: LOG_RETENTION });
      (notificationsHandler.node.defaultChild as CfnResource).addPropertyOverride('LoggingConfig', {
        LogGroup: logs.logGroupName,
      });
      NagSuppressions.addResourceSuppressions(notificationsHandler.node.findChild('Role'), [
        CDK_CUSTOM_RESOURCE_BASIC_ROLE,
      ]);
    }

    this.api = new HttpApi(this, 'Api', { apiName: 'groupshoot-api', createDefaultStage: false });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: LOG_RETENTION });
    const stageThrottle = props.throttle ?? DEFAULT_STAGE_THROTTLE;
    const stage = new HttpStage(this, 'V1', {
      httpApi: this.api,
      stageName: 'v1',
      autoDeploy: true,
      throttle: stageThrottle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            time: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latencyMs: '$context.responseLatency',
            sourceIp: '$context.identity.sourceIp',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    this.addRoutes(stage, { ...DEFAULT_ROUTE_THROTTLES, ...props.routeThrottles }, stageThrottle);
    if (props.apiDomain) {
      const domainName = new DomainName(this, 'ApiDomain', {
        domainName: props.apiDomain.domainName,
        certificate: Certificate.fromCertificateArn(this, 'ApiCertificate', props.apiDomain.certificateArn),
      });
      // https://<domain>/v1/… like the default endpoint: the stage name stays the version segment.
      new ApiMapping(this, 'ApiDomainMapping', { api: this.api, domainName, stage, apiMappingKey: 'v1' });
      new CfnOutput(this, 'ApiDomainTarget', {
        value: domainName.regionalDomainName,
        description: 'CNAME/alias target of the API domain',
      });
    }

    const stageUrl = stage.url.replace(/\/$/, '');
    this.apiFront = props.apiFront && this.addApiFront(props.apiFront, delivery, [...apiFunctions.keys()], stageUrl);
    const apiUrl = this.apiFront?.url ?? stageUrl;
    this.deployCheckinPage(delivery, apiUrl, props.checkinTenantSlug);
    const photoNotices = new PhotoNotices(this, 'PhotoNotices', {
      table,
      sender: this.functions.get(PHOTO_NOTICE_HANDLER)!,
      linkSender: this.functions.get(PHOTO_LINK_HANDLER)!,
      fromAddress: props.photoNoticeSender,
      senderHandler: PHOTO_NOTICE_HANDLER,
      // Not the stage's URL: the stage depends on the routes, and so on the functions that get this address.
      publicApiUrl:
        this.apiFront?.url ??
        (props.apiDomain
          ? `https://${props.apiDomain.domainName}/v1`
          : `https://${this.api.apiId}.execute-api.${this.region}.${this.urlSuffix}/v1`),
    });
    const referenceFaces = new ReferenceFaces(this, 'ReferenceFaces', {
      table,
      describer: this.functions.get(REFERENCE_FACE_HANDLER)!,
    });
    const failureQueues = new Map([
      [PHOTO_INGEST_HANDLER, ingestFailures.queue],
      [EVENT_DISPATCH_HANDLER, webhooks.dispatchFailures.queue],
      [PHOTO_NOTICE_HANDLER, photoNotices.failures.queue],
      [REFERENCE_FACE_HANDLER, referenceFaces.failureQueue],
    ]);
    // `ops replay` reads the handlers that keep failures from the registry: each must have its queue here.
    const withoutQueue = REPLAYABLE_HANDLERS.filter((handler) => !failureQueues.has(handler));
    if (withoutQueue.length > 0 || failureQueues.size !== REPLAYABLE_HANDLERS.length)
      throw new Error(`Failure queues do not match the handlers that keep failures: ${withoutQueue.join(', ')}`);
    const others = [
      ...webhooks.alarms,
      ...photoNotices.alarms,
      ...referenceFaces.alarms,
      ...retention.alarms,
      ...hrExports.alarms,
      ingestFailures.alarm,
    ];
    this.addAlarms(stage, others, props.alarmSubscription);
    new OperationsDashboard(this, 'Operations', {
      stage,
      accessLogs,
      functions: this.functions,
      checkin: this.functions.get(PHOTO_LINK_HANDLER)!,
      dispatcher: this.functions.get(EVENT_DISPATCH_HANDLER)!,
      deliverer: this.functions.get(WEBHOOK_DELIVERY_HANDLER)!,
      deliveryQueue: webhooks.queue,
      deliveryDeadLetters: webhooks.deadLetterQueue,
      ingest: this.functions.get(PHOTO_INGEST_HANDLER)!,
      ingestFailures: ingestFailures.queue,
      retentionPlanner: this.functions.get(RETENTION_PLANNER_HANDLER)!,
      retentionWorker: this.functions.get(RETENTION_WORKER_HANDLER)!,
      retentionDeadLetters: retention.deadLetterQueue,
      failureQueues,
    });
    new CfnOutput(this, 'FailureQueues', {
      value: Stack.of(this).toJsonString(
        Object.fromEntries([...failureQueues].map(([handler, queue]) => [handler, queue.queueUrl])),
      ),
      description:
        'Set as FAILURE_QUEUES for `npm run admin -- ops replay` against this stack (docs/deployment.md#failure-replay)',
    });
    new CfnOutput(this, 'ApiUrl', {
      value: apiUrl,
      description: 'Base URL of the API for every client, the Stripe webhook included',
    });
    new CfnOutput(this, 'CheckinPageUrl', {
      value: environment.CHECKIN_PAGE_URL,
      description: 'Open with ?token=<gallery token> (and ?tenant=<slug> unless checkinTenantSlug is set)',
    });
    new CfnOutput(this, 'PhotoCdnUrl', { value: environment.PHOTO_CDN_URL });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'MediaBucketName', { value: delivery.mediaBucket.bucketName });
    new CfnOutput(this, 'CheckinPageBucketName', { value: delivery.checkinPageBucket.bucketName });
    new CfnOutput(this, 'WebhookSealingKeyArn', {
      value: secrets.webhookSealingKey.secretArn,
      description: 'Set as WEBHOOK_SEALING_KEY_ARN for `npm run admin -- webhook add|rotate-secret` against this stack',
    });

    NagSuppressions.addStackSuppressions(this, [
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'Authorization is the service itself: API keys checked by the functions; public routes are public by the spec.',
      },
    ]);
  }

  /**
   * Every route of the stage (stage-routes.ts): the route module's routes on primary path and
   * alias; per known path an ANY route and for everything else $default, both to the function
   * that answers 404 and 405. Each is throttled by its class on the stage.
   */
  private addRoutes(stage: HttpStage, throttles: Record<RouteClass, Throttle>, stageThrottle: Throttle): void {
    const integrations = new Map<string, HttpLambdaIntegration>();
    const integrationOf = (handler: string) => {
      let integration = integrations.get(handler);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${functionId(handler)}Integration`, this.functions.get(handler)!);
        integrations.set(handler, integration);
      }
      return integration;
    };
    const cfnStage = stage.node.defaultChild as CfnStage;
    const all = stageRoutes();
    for (const { key, method, path, handler } of all) {
      const route = new HttpRoute(this, `Route ${key}`, {
        httpApi: this.api,
        routeKey: method && path ? HttpRouteKey.with(path, HttpMethod[method]) : HttpRouteKey.DEFAULT,
        integration: integrationOf(handler),
      });
      // Route settings name routes by key: CloudFormation must create the routes first.
      cfnStage.addResourceDependency(route.node.defaultChild as CfnRoute);
    }
    cfnStage.routeSettings = routeThrottleSettings(all, throttles, stageThrottle);
  }

  /**
   * CloudFront and the web ACL in front of the API. Every API function learns where the client's
   * address is (CLIENT_ADDRESS_HEADER, set with the environment) and may read the origin-verify
   * secret, to refuse requests that did not come through CloudFront.
   */
  private addApiFront(
    options: { webAclArn: string; domain?: CloudFrontDomain },
    delivery: MediaDelivery,
    apiHandlers: string[],
    stageUrl: string,
  ): ApiFront {
    const front = new ApiFront(this, 'ApiFront', {
      api: this.api,
      webAclArn: options.webAclArn,
      domain: options.domain,
      logBucket: delivery.logsBucket,
    });
    for (const handler of apiHandlers) {
      const fn = this.functions.get(handler)!;
      fn.addEnvironment('ORIGIN_VERIFY_SECRET_ARN', front.originVerifySecret.secretArn);
      front.originVerifySecret.grantRead(fn);
    }
    new CfnOutput(this, 'ApiOriginUrl', {
      value: stageUrl,
      description: "The HTTP API's own endpoint, CloudFront's origin; clients use ApiUrl",
    });
    return front;
  }

  /** The reference page of web/ with its config.js (API URL, tenant), into the page bucket behind CloudFront. */
  private deployCheckinPage(delivery: MediaDelivery, apiUrl: string, tenantSlug: string | undefined): void {
    delivery.allowCheckinPageToCall(apiUrl);
    const config = `window.GROUPSHOOT_CONFIG = {"apiBaseUrl":"${apiUrl}","tenantSlug":${JSON.stringify(tenantSlug ?? null)}};\n`;
    new BucketDeployment(this, 'CheckinPage', {
      // The QR encoder is built from the qrcode package here, as the local server builds it.
      sources: [
        Source.asset(join(__dirname, '..', 'web')),
        Source.data('config.js', config),
        Source.data(QR_ENCODER_FILE, buildQrEncoder()),
      ],
      destinationBucket: delivery.checkinPageBucket,
      distribution: delivery.checkinPageCdn,
      logGroup: new LogGroup(this, 'CheckinPageDeploymentLogs', { retention: LOG_RETENTION }),
      distributionPaths: ['/*'],
    });
    // CDK's deployment custom resource: its role, runtime and policies are CDK's own.
    const pageBucketId = this.getLogicalId(delivery.checkinPageBucket.node.defaultChild as CfnResource);
    for (const child of this.node.children) {
      if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
      const role = child.node.findChild('ServiceRole');
      NagSuppressions.addResourceSuppressions(role, [CDK_CUSTOM_RESOURCE_BASIC_ROLE]);
      NagSuppressions.addResourceSuppressions(
        role.node.findChild('DefaultPolicy'),
        [
          {
            id: 'AwsSolutions-IAM5',
            reason:
              "CDK's bucket-deployment custom resource: CDK's own action groups to read the asset from CDK's asset bucket and replace the page bucket's objects, and the invalidation of the page's distribution (CloudFront's CreateInvalidation is granted on every distribution).",
            appliesTo: [
              'Action::s3:GetObject*',
              'Action::s3:GetBucket*',
              'Action::s3:List*',
              'Action::s3:DeleteObject*',
              'Action::s3:Abort*',
              `Resource::<${pageBucketId}.Arn>/*`,
              // CDK's asset bucket: account and region are tokens, or written out when the stack has an env.
              {
                regex:
                  '/^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-(<AWS::AccountId>|\\d{12})-(<AWS::Region>|[a-z0-9-]+)\\/\\*$/',
              },
              'Resource::*',
            ],
          },
        ],
        true,
      );
      NagSuppressions.addResourceSuppressions(
        child.node.findChild('Resource'),
        [{ id: 'AwsSolutions-L1', reason: "The runtime of CDK's bucket-deployment custom resource is chosen by CDK." }],
        true,
      );
    }
  }

  /** Alarms on the API's 5xx answers, on every function's errors and throttles, and `others`, to one topic and its subscriber. */
  private addAlarms(stage: HttpStage, others: readonly Alarm[], subscription: AlarmSubscription | undefined): void {
    const { topic } = new AlarmTopic(this, 'Alarms', { subscription });
    const alarms = [
      thresholdAlarm(
        this,
        'Api5xxAlarm',
        stage.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
        5,
      ),
      ...others,
    ];
    for (const [handler, fn] of this.functions) {
      const id = functionId(handler);
      alarms.push(thresholdAlarm(this, `${id}ErrorsAlarm`, fn.metricErrors({ period: Duration.minutes(5) }), 1));
      alarms.push(thresholdAlarm(this, `${id}ThrottlesAlarm`, fn.metricThrottles({ period: Duration.minutes(5) }), 1));
    }
    for (const alarm of alarms) alarm.addAlarmAction(new SnsAction(topic));
    new CfnOutput(this, 'AlarmTopicArn', { value: topic.topicArn });
  }
}

/**
 * CDK's own custom resources (bucket notifications, the check-in page's deployment) get
 * AWSLambdaBasicExecutionRole, which lets them write to any log group of the account; CDK offers
 * no way to narrow it. They run only while CloudFormation deploys.
 */
const CDK_CUSTOM_RESOURCE_BASIC_ROLE = {
  id: 'AwsSolutions-IAM4',
  reason:
    "CDK's custom resource gets AWSLambdaBasicExecutionRole (any log group of the account) and CDK offers no narrower role; it runs only during deployments.",
  appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
};

/**
 * The construct IDs of the handlers that moved when functions/ came to mirror lib/ (issue 40),
 * and again when photos' handlers moved into its sub-features' folders (functions/photos/sorting/…),
 * kept as they were: a new ID would make CloudFormation replace the function, and with it its log
 * group (retained, so left behind), its alarms and its event source mappings.
 */
const CONSTRUCT_IDS_BEFORE_THE_MOVE: Readonly<Record<string, string>> = {
  'webhooks/deliver-webhooks': 'EventsDeliverWebhooks',
  'webhooks/dispatch-events': 'EventsDispatchEvents',
  'photos/uploads/complete-uploads': 'IntegrationCompleteUploads',
  'photos/uploads/create-uploads': 'IntegrationCreateUploads',
  'photos/uploads/list-inbox-files': 'IntegrationListInboxFiles',
  'photos/access/list-person-photos': 'IntegrationListPersonPhotos',
  'hr-exports/create-hr-export': 'IntegrationCreateHrExport',
  'hr-exports/get-hr-export': 'IntegrationGetHrExport',
  'galleries/get-gallery-stats': 'IntegrationGetGalleryStats',
  'galleries/list-form-fields': 'IntegrationListFormFields',
  'galleries/list-shooting-days': 'IntegrationListShootingDays',
  'persons/import-persons': 'IntegrationImportPersons',
  'persons/list-persons': 'IntegrationListPersons',
  'photos/sorting/ingest-photo': 'MediaIngestPhoto',
  'photos/notices/send-photo-notices': 'PhotosSendPhotoNotices',
  'http/cors-preflight': 'SystemCorsPreflight',
  'http/route-not-matched': 'SystemRouteNotMatched',
};

/**
 * The construct ID of a handler's function, from its path: `checkin/post-group-shoot` →
 * `CheckinPostGroupShoot`, but the IDs of CONSTRUCT_IDS_BEFORE_THE_MOVE stay what they were.
 */
export function functionId(handler: string): string {
  return (
    CONSTRUCT_IDS_BEFORE_THE_MOVE[handler] ??
    handler
      .split(/[/-]/)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('')
  );
}
