/**
 * Vectors of the OWASP XSS Filter Evasion Cheat Sheet (and a few mutation-XSS classics), for the
 * history HTML sanitizers: the server's (sanitize-html) and the web's (DOMPurify on render). Plain data
 * and DOM checks, no server code: the web test imports this file too.
 */
export const XSS_VECTORS: { name: string; html: string }[] = [
  { name: 'script tag', html: '<script>alert(1)</script>' },
  { name: 'script with src', html: '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>' },
  { name: 'script with non-alpha separator', html: '<SCRIPT/XSS SRC="http://xss.example/xss.js"></SCRIPT>' },
  { name: 'extraneous open brackets', html: '<<SCRIPT>alert("XSS");//\\<</SCRIPT>' },
  { name: 'no closing script tag', html: '<SCRIPT SRC=http://xss.example/xss.js?< B >' },
  { name: 'end title then script', html: '</TITLE><SCRIPT>alert("XSS");</SCRIPT>' },
  { name: 'img javascript: src', html: `<IMG SRC="javascript:alert('XSS');">` },
  { name: 'img unquoted mixed case', html: `<IMG SRC=JaVaScRiPt:alert('XSS')>` },
  { name: 'img grave accents', html: '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>' },
  { name: 'malformed img with script', html: '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>' },
  { name: 'img onerror', html: '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>' },
  {
    name: 'img onerror with encoded handler',
    html: '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  },
  { name: 'img dynsrc and lowsrc', html: `<IMG DYNSRC="javascript:alert('XSS')"><IMG LOWSRC="javascript:alert('XSS')">` },
  { name: 'img style expression', html: `<IMG STYLE="xss:expr/*XSS*/ession(alert('XSS'))">` },
  { name: 'event handler on an allowed tag', html: '<p onclick="alert(1)" onmouseover=alert(2)>texto</p>' },
  { name: 'event handler on a link', html: '<a onmouseover="alert(document.cookie)">xxs link</a>' },
  { name: 'event handler on a table cell', html: '<table><tr><td colspan="1" onmouseover="alert(1)">x</td></tr></table>' },
  { name: 'body onload with junk characters', html: '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>' },
  { name: 'custom tag with onfocus', html: '<xss id=x tabindex=1 onfocus=alert(1) autofocus></xss>' },
  { name: 'details ontoggle', html: '<details open ontoggle=alert(1)><summary>x</summary></details>' },
  { name: 'javascript: link', html: `<a href="javascript:alert('XSS')">x</a>` },
  { name: 'javascript: link upper case', html: `<a href="JAVASCRIPT:alert('XSS')">x</a>` },
  {
    name: 'javascript: link decimal entities',
    html: '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;">x</a>',
  },
  {
    name: 'javascript: link long decimal entities without semicolons',
    html: '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">x</a>',
  },
  {
    name: 'javascript: link hex entities without semicolons',
    html: '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29">x</a>',
  },
  { name: 'javascript: link with one entity', html: '<a href="javas&#99;ript:alert(1)">x</a>' },
  { name: 'javascript: link with &colon;', html: '<a href="javascript&colon;alert(1)">x</a>' },
  { name: 'javascript: link with embedded tab', html: `<a href="jav\tascript:alert('XSS');">x</a>` },
  { name: 'javascript: link with encoded tab', html: `<a href="jav&#x09;ascript:alert('XSS');">x</a>` },
  { name: 'javascript: link with encoded newline', html: `<a href="jav&#x0A;ascript:alert('XSS');">x</a>` },
  { name: 'javascript: link with encoded carriage return', html: `<a href="jav&#x0D;ascript:alert('XSS');">x</a>` },
  { name: 'javascript: link after spaces and meta characters', html: `<a href=" &#14;  javascript:alert('XSS');">x</a>` },
  { name: 'vbscript: link', html: '<a href="vbscript:msgbox(1)">x</a>' },
  { name: 'data: link', html: '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>' },
  { name: 'protocol-relative link', html: '<a href="//evil.example/x">x</a>' },
  { name: 'input image', html: `<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">` },
  { name: 'body background', html: `<BODY BACKGROUND="javascript:alert('XSS')">` },
  {
    name: 'table and cell background',
    html: `<TABLE BACKGROUND="javascript:alert('XSS')"><TR><TD BACKGROUND="javascript:alert('XSS')">x</TD></TR></TABLE>`,
  },
  { name: 'svg onload', html: `<svg/onload=alert('XSS')>` },
  { name: 'svg xlink:href', html: '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>' },
  { name: 'svg script', html: '<svg><script>alert(1)</script></svg>' },
  { name: 'math href', html: '<math href="javascript:javascript:alert(1)">CLICKME</math>' },
  {
    name: 'math mutation (mglyph/style)',
    html: '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  },
  { name: 'noscript mutation', html: '<noscript><p title="</noscript><img src=x onerror=alert(1)>">' },
  { name: 'div style url(javascript:)', html: `<DIV STYLE="background-image: url(javascript:alert('XSS'))">x</DIV>` },
  { name: 'div style expression', html: `<DIV STYLE="width: expression(alert('XSS'));">x</DIV>` },
  { name: 'style import', html: `<STYLE>@import'http://xss.example/xss.css';</STYLE>` },
  { name: 'style list-style-image', html: `<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>` },
  { name: 'link stylesheet', html: `<LINK REL="stylesheet" HREF="javascript:alert('XSS');">` },
  { name: 'meta refresh javascript:', html: `<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">` },
  {
    name: 'meta refresh data:',
    html: '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">',
  },
  { name: 'iframe javascript:', html: `<IFRAME SRC="javascript:alert('XSS');"></IFRAME>` },
  { name: 'iframe srcdoc', html: '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>' },
  { name: 'frameset', html: `<FRAMESET><FRAME SRC="javascript:alert('XSS');"></FRAMESET>` },
  { name: 'base href', html: `<BASE HREF="javascript:alert('XSS');//">` },
  { name: 'object data', html: '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.example/scriptlet.html"></OBJECT>' },
  {
    name: 'embed data: svg',
    html: '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciPjxzY3JpcHQ+YWxlcnQoMSk8L3NjcmlwdD48L3N2Zz4=" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  },
  { name: 'form action', html: '<form action="javascript:alert(1)"><input type="submit"></form>' },
  { name: 'button formaction', html: '<form><button formaction="javascript:alert(1)">X</button></form>' },
  { name: 'template with script', html: '<template><script>alert(1)</script></template>' },
  { name: 'conditional comment', html: "<!--[if gte IE 4]><SCRIPT>alert('XSS');</SCRIPT><![endif]-->" },
  { name: 'link that tries to keep the opener', html: '<a href="https://ok.example/" target="_self" rel="opener" onclick="x()">ok</a>' },
];

/** The markup a history entry may render: what the editor writes, and links to the web or mail. */
export const RENDERABLE_TAGS = new Set([
  'P',
  'BR',
  'STRONG',
  'EM',
  'B',
  'I',
  'U',
  'S',
  'H1',
  'H2',
  'H3',
  'H4',
  'UL',
  'OL',
  'LI',
  'BLOCKQUOTE',
  'TABLE',
  'THEAD',
  'TBODY',
  'TR',
  'TH',
  'TD',
  'A',
  'HR',
]);
const ATTRIBUTES: Record<string, string[]> = { A: ['href', 'rel', 'target'], TD: ['colspan', 'rowspan'], TH: ['colspan', 'rowspan'] };
const SAFE_HREF = /^(?:https?:\/\/[^\s/]|mailto:\S)/i;

/**
 * What could run, load or navigate in HTML as a browser parsed it (`root`, e.g. a template's content):
 * any element outside the renderable ones, any attribute outside theirs (event handlers, style, src…),
 * a link whose decoded href is not an absolute http(s) or mailto address, or a link that keeps the
 * opener. Empty when nothing executable survived.
 */
export function executableConstructs(root: { querySelectorAll(selector: string): ArrayLike<Element> }): string[] {
  const found: string[] = [];
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const tag = el.tagName.toUpperCase();
    if (!RENDERABLE_TAGS.has(tag) || el.namespaceURI !== 'http://www.w3.org/1999/xhtml') found.push(`<${el.tagName.toLowerCase()}>`);
    for (const a of Array.from(el.attributes))
      if (!(ATTRIBUTES[tag] ?? []).includes(a.name)) found.push(`${el.tagName.toLowerCase()}[${a.name}]`);
    if (tag === 'A' && el.hasAttribute('href')) {
      if (!SAFE_HREF.test(el.getAttribute('href')!)) found.push(`a[href=${el.getAttribute('href')}]`);
      if (el.getAttribute('target') !== '_blank' || !/\bnoopener\b/.test(el.getAttribute('rel') ?? '')) found.push('a without noopener');
    }
  }
  return found;
}
