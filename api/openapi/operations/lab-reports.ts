/** Lab report parsing jobs: upload, read, human review (README "Lab report parsing"). */
import { createJobFields, jobIdParam, reviewBody } from '../../routes/lab-reports/schemas.js';
import { z } from 'zod';
import { job as parsingJob } from '../responses/extensions.js';
import { json, named, type Operation } from '../spec.js';

const job = json(named('ParsingJob', parsingJob));
const tag = 'Lab reports';

/** The upload form: the fields the route reads, and one or more files (`file`: a PDF, or up to 8 images). */
const uploadForm = createJobFields.extend({
  file: z.union([z.string(), z.array(z.string())]).meta({ description: 'The report: one PDF, or up to 8 images (binary).', contentMediaType: 'application/octet-stream' }),
});

export const labReportOperations: Operation[] = [
  { method: 'POST', path: '/lab_report/v1/parser/job', tag, summary: 'Upload a lab report to parse', auth: 'team', body: { multipart: uploadForm }, responses: { 200: job } },
  { method: 'GET', path: '/lab_report/v1/parser/job/{job_id}', tag, summary: 'Read a parsing job', auth: 'team', params: jobIdParam, responses: { 200: job } },
  { method: 'POST', path: '/lab_report/v1/parser/job/{job_id}/review', tag, summary: 'Approve or correct a job held for review', auth: 'team', params: jobIdParam, body: { json: reviewBody }, responses: { 200: job } },
];
