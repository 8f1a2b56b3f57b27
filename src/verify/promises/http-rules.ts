// The rules of HTTP the document relies on without writing them out, each named by its RFC and
// section with the rule's own words: promises a store keeps as an HTTP server, counted beside the
// document's own. Each is one a store can really break and an answer can show, found from the features
// the document uses (the http bearer scheme, JSON bodies, the query string, Link, Retry-After, 405 and
// Allow, HEAD, 401, 413, 415, 429). Sections read for them: RFC 9110 sections 8.3, 8.3.1, 8.6, 9.1,
// 9.3.2, 10.2.3, 11.1, 11.6.1, 15.3.5, 15.5.6, 15.5.14 and 15.5.16; RFC 6750 sections 2.1, 3 and 3.1;
// RFC 8259 section 8.1; RFC 8288 section 3.2; RFC 6585 section 4. A breach that Node's HTTP layer makes impossible for a store written
// on it (content in a 204 or a HEAD answer) is still judged, but has no planted bug.

export interface HttpRule {
  id: string
  rfc: string
  section: string
  words: string
}

export const HTTP_RULES: readonly HttpRule[] = [
  {
    id: 'rfc9110.405-allow',
    rfc: 'RFC 9110',
    section: '15.5.6',
    words:
      'The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource’s currently supported methods.',
  },
  {
    id: 'rfc9110.head-as-get',
    rfc: 'RFC 9110',
    section: '9.3.2',
    words:
      'The HEAD method is identical to GET except that the server MUST NOT send content in the response. The server SHOULD send the same header fields in response to a HEAD request as it would have sent if the request method had been GET.',
  },
  {
    id: 'rfc9110.401-www-authenticate',
    rfc: 'RFC 9110',
    section: '11.6.1',
    words:
      'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge applicable to the target resource.',
  },
  {
    id: 'rfc9110.retry-after',
    rfc: 'RFC 9110',
    section: '10.2.3',
    words:
      'Servers send the "Retry-After" header field to indicate how long the user agent ought to wait before making a follow-up request.',
  },
  {
    id: 'rfc9110.204-no-content',
    rfc: 'RFC 9110',
    section: '15.3.5',
    words:
      'The 204 (No Content) status code indicates that the server has successfully fulfilled the request and that there is no additional content to send in the response content.',
  },
  {
    id: 'rfc9110.415-unsupported',
    rfc: 'RFC 9110',
    section: '15.5.16',
    words:
      'The 415 (Unsupported Media Type) status code indicates that the origin server is refusing to service the request because the content is in a format not supported by this method on the target resource.',
  },
  {
    id: 'rfc9110.413-content-too-large',
    rfc: 'RFC 9110',
    section: '15.5.14',
    words:
      'The 413 (Content Too Large) status code indicates that the server is refusing to process a request because the request content is larger than the server is willing or able to process.',
  },
  {
    id: 'rfc9110.media-type-case',
    rfc: 'RFC 9110',
    section: '8.3.1',
    words:
      'The type and subtype tokens are case-insensitive. The presence or absence of a parameter might be significant to the processing of a media type, depending on its definition within the media type registry.',
  },
  {
    id: 'rfc6750.authorization-header',
    rfc: 'RFC 6750',
    section: '2.1',
    words:
      'When sending the access token in the "Authorization" request header field defined by HTTP/1.1, the client uses the "Bearer" authentication scheme to transmit the access token.',
  },
  {
    id: 'rfc6750.bearer-credentials-syntax',
    rfc: 'RFC 6750',
    section: '2.1',
    words:
      'The syntax for Bearer credentials is as follows: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" credentials = "Bearer" 1*SP b64token',
  },
  {
    id: 'rfc6750.www-authenticate-bearer',
    rfc: 'RFC 6750',
    section: '3',
    words:
      'If the protected resource request does not include authentication credentials or does not contain an access token that enables access to the protected resource, the resource server MUST include the HTTP "WWW-Authenticate" response header field.',
  },
  {
    id: 'rfc8288.link-resolution',
    rfc: 'RFC 8288',
    section: '3.2',
    words:
      "If the URI-Reference is relative, parsers MUST resolve it as per RFC 3986, Section 5. Note that any base URI from the body's content is not applied.",
  },
  {
    id: 'rfc9110.auth-scheme-case',
    rfc: 'RFC 9110',
    section: '11.1',
    words: 'It uses a case-insensitive token to identify the authentication scheme',
  },
  {
    id: 'rfc9110.method-case',
    rfc: 'RFC 9110',
    section: '9.1',
    words:
      'The method token is case-sensitive because it might be used as a gateway to object-based systems with case-sensitive method names. By convention, standardized methods are defined in all-uppercase US-ASCII letters.',
  },
  {
    id: 'rfc9110.head-content-length',
    rfc: 'RFC 9110',
    section: '8.6',
    words:
      'A server MAY send a Content-Length header field in a response to a HEAD request (Section 9.3.2); a server MUST NOT send Content-Length in such a response unless its field value equals the decimal number of octets that would have been sent in the content of a response if the same request had used the GET method.',
  },
  {
    id: 'rfc9110.content-type',
    rfc: 'RFC 9110',
    section: '8.3',
    words:
      'A sender that generates a message containing content SHOULD generate a Content-Type header field in that message unless the intended media type of the enclosed representation is unknown to the sender.',
  },
  {
    id: 'rfc8259.utf-8',
    rfc: 'RFC 8259',
    section: '8.1',
    words:
      'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8 [RFC3629].',
  },
  {
    id: 'rfc6750.no-error-without-credentials',
    rfc: 'RFC 6750',
    section: '3.1',
    words:
      'If the request lacks any authentication information (e.g., the client was unaware that authentication is necessary or attempted using an unsupported authentication method), the resource server SHOULD NOT include an error code or other error information.',
  },
  {
    id: 'rfc6585.429-too-many',
    rfc: 'RFC 6585',
    section: '4',
    words:
      'The 429 status code indicates that the user has sent too many requests in a given amount of time ("rate limiting"). The response representations SHOULD include details explaining the condition, and MAY include a Retry-After header indicating how long to wait before making a new request.',
  },
]
