/**
 * Routes. Record pages sit at the same paths as the record IRIs (`/software/<id>`, `/instance/<id>`,
 * `/run/<id>`, `/artifact/<id>`, `/type/<slug>`, `/release/<id>`), so an IRI opened in a browser shows its page.
 * Every page is its own chunk, loaded when first visited. More specific paths come before `/:id` ones.
 */
import { ErrorBoundary, LocationProvider, Route, Router, lazy } from 'preact-iso';
import { Layout } from './components/layout';

const Home = lazy(() => import('./pages/home'));
const SoftwareList = lazy(() => import('./pages/software-list'));
const SoftwareDetail = lazy(() => import('./pages/software-detail'));
const ReleaseDetail = lazy(() => import('./pages/release-detail'));
const InstanceList = lazy(() => import('./pages/instance-list'));
const InstanceDetail = lazy(() => import('./pages/instance-detail'));
const RunList = lazy(() => import('./pages/run-list'));
const RunDetail = lazy(() => import('./pages/run-detail'));
const ArtifactList = lazy(() => import('./pages/artifact-list'));
const ArtifactDetail = lazy(() => import('./pages/artifact-detail'));
const TypeList = lazy(() => import('./pages/type-list'));
const TypeDetail = lazy(() => import('./pages/type-detail'));
const Search = lazy(() => import('./pages/search'));
const Lineage = lazy(() => import('./lineage/page'));
const Sparql = lazy(() => import('./sparql/page'));
const Connect = lazy(() => import('./pages/connect'));
const SignIn = lazy(() => import('./manage/signin'));
const Callback = lazy(() => import('./manage/callback'));
const SoftwareForm = lazy(() => import('./manage/software-form'));
const ReleaseForm = lazy(() => import('./manage/release-form'));
const InstanceForm = lazy(() => import('./manage/instance-form'));
const Tokens = lazy(() => import('./manage/tokens'));
const Subscriptions = lazy(() => import('./manage/subscriptions'));
const SubscriptionLog = lazy(() => import('./pages/subscription-log'));
const NotFound = lazy(() => import('./pages/not-found'));

export function App() {
  return (
    <LocationProvider>
      <Layout>
        <ErrorBoundary>
          <Router>
            <Route path="/" component={Home} />
            <Route path="/search" component={Search} />
            <Route path="/software" component={SoftwareList} />
            <Route path="/software/new" component={SoftwareForm} />
            <Route path="/software/:id/edit" component={SoftwareForm} />
            <Route path="/software/:id/releases/new" component={ReleaseForm} />
            <Route path="/software/:id/tokens" component={Tokens} />
            <Route path="/software/:id" component={SoftwareDetail} />
            <Route path="/release/:id" component={ReleaseDetail} />
            <Route path="/instances" component={InstanceList} />
            <Route path="/instances/new" component={InstanceForm} />
            <Route path="/instance/:id/edit" component={InstanceForm} />
            <Route path="/instance/:id/tokens" component={Tokens} />
            <Route path="/instance/:id/subscriptions" component={Subscriptions} />
            <Route path="/subscriptions/:id/log" component={SubscriptionLog} />
            <Route path="/instance/:id" component={InstanceDetail} />
            <Route path="/instances/:id" component={InstanceDetail} />
            <Route path="/runs" component={RunList} />
            <Route path="/run/:id" component={RunDetail} />
            <Route path="/runs/:id" component={RunDetail} />
            <Route path="/artifacts" component={ArtifactList} />
            <Route path="/artifact/:id" component={ArtifactDetail} />
            <Route path="/artifacts/:id" component={ArtifactDetail} />
            <Route path="/types" component={TypeList} />
            <Route path="/type/:id" component={TypeDetail} />
            <Route path="/lineage" component={Lineage} />
            <Route path="/sparql" component={Sparql} />
            <Route path="/connect" component={Connect} />
            <Route path="/signin" component={SignIn} />
            <Route path="/auth/callback" component={Callback} />
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </Layout>
    </LocationProvider>
  );
}
