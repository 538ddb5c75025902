export { VERSION } from '../model/version.js';
