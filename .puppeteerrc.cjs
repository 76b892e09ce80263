/** Puppeteer (a dependency of whatsapp-web.js) never downloads a browser at install: the system chromium is used. */
module.exports = { skipDownload: true };
