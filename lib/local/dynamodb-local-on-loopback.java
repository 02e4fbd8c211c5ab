import java.lang.reflect.Field;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local as `java -jar DynamoDBLocal.jar <args>` runs it, reachable from this machine
 * only (docs/local.md#dynamodb-local-on-loopback). It checks no signature, so whoever reaches
 * its port owns the local table; and it has no option to choose its address: its Jetty
 * server is made with a port alone, which listens on every interface. So this launcher
 * builds the server as the jar's own main does, binds its connector to 127.0.0.1 before it
 * starts, and puts a check in front of it that refuses a request naming another host than a
 * loopback one (a web page that rebinds its own name to 127.0.0.1). Every answer names the
 * run it comes from (`x-local-dynamodb-instance`, the system property `local.dynamodb.instance`
 * the runtime chose), so the runtime never takes another program on the port for it.
 *
 * Started by lib/local/dynamodb-local-process.ts with the `java` launcher's source-file mode
 * (`java -cp DynamoDBLocal.jar dynamodb-local-on-loopback.java …`): a Java runtime is all
 * it needs, no build step.
 */
final class DynamoDbLocalOnLoopback {
  static final String HOST = "127.0.0.1";
  static final String INSTANCE_HEADER = "x-local-dynamodb-instance";
  static final String INSTANCE = System.getProperty("local.dynamodb.instance", "");

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Server jetty = jettyOf(proxy);
    for (Connector connector : jetty.getConnectors()) {
      if (!(connector instanceof ServerConnector)) {
        throw new IllegalStateException("DynamoDB Local has a connector that cannot be bound to " + HOST + ": "
            + connector + "; not starting it on every interface");
      }
      ((ServerConnector) connector).setHost(HOST);
    }
    jetty.insertHandler(new LoopbackHostsOnly());
    // Prints "Could not start server on port …: Address already in use" and ends, as the jar does.
    proxy.start();
  }

  /** DynamoDBProxyServer keeps its Jetty server private and starts it as it is. */
  static Server jettyOf(DynamoDBProxyServer proxy) {
    try {
      Field field = DynamoDBProxyServer.class.getDeclaredField("server");
      field.setAccessible(true);
      return (Server) field.get(proxy);
    } catch (ReflectiveOperationException | ClassCastException error) {
      throw new IllegalStateException("this DynamoDB Local keeps its server elsewhere (" + error
          + "); lib/local/dynamodb-local-on-loopback.java must follow it before it can start on " + HOST, error);
    }
  }

  /** Answers only requests whose Host is a loopback name, whatever the port (the runtime's proxies keep the Host they were sent). */
  static final class LoopbackHostsOnly extends Handler.Wrapper {
    private static final Pattern LOOPBACK_HOST =
        Pattern.compile("(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]{1,5})?", Pattern.CASE_INSENSITIVE);

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      response.getHeaders().put(INSTANCE_HEADER, INSTANCE);
      String host = request.getHeaders().get(HttpHeader.HOST);
      if (host != null && LOOPBACK_HOST.matcher(host).matches()) return super.handle(request, response, callback);
      // The body of DynamoDB's own AccessDeniedException, so an SDK says why.
      response.setStatus(403);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-amz-json-1.0");
      Content.Sink.write(response, true,
          "{\"__type\":\"com.amazonaws.dynamodb.v20120810#AccessDeniedException\",\"message\":"
              + "\"DynamoDB Local under npm start answers only requests addressed to 127.0.0.1 or localhost\"}",
          callback);
      return true;
    }
  }
}
